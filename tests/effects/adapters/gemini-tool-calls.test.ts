// The tool calls Gemini CLI reports as executed: each tool_use with a tool_result that is not a
// policy_violation (a BeforeTool hook's block), keyed as the gate keys gemini's calls.
import { describe, expect, it } from 'vitest';
import { createGeminiParser } from '../../../effects/adapters/gemini.js';
import { gateCallId } from '../../../policy/gate/gate-call-id.js';
import { feed, sample } from './support/feed-parser.js';

const executed = (name: string) => {
  const parser = createGeminiParser(null);
  feed(parser, { stdout: sample(name) });
  return parser.toolCalls?.();
};

describe('the tool calls gemini ran', () => {
  it('a blocked call did not run; the others are keyed by their tool and input, as the gate keys them', () => {
    const ls = { command: 'ls keep', description: 'Run the scripted command' };
    const notes = { file_path: '.loop/notes.md', content: 'STATUS: DONE\n\nTried.\n' };
    expect(executed('gemini-0.61.0-stream-json-tool-blocked-by-hook.jsonl')).toEqual([
      { tool: 'run_shell_command', match: { by: 'callId', callId: gateCallId(null, 'run_shell_command', ls) }, summary: 'run_shell_command ls keep' },
      { tool: 'write_file', match: { by: 'callId', callId: gateCallId(null, 'write_file', notes) }, summary: 'write_file .loop/notes.md' },
    ]);
  });

  it('a write that ran is one call', () => {
    expect(executed('gemini-0.61.0-stream-json-tool-write_file.jsonl')?.map((call) => call.summary)).toEqual(['write_file /home/dev/project/notes.md']);
  });
});
