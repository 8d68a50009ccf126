// The tool calls Qwen Code reports as executed: each tool_use with a tool_result that is not an
// error and not in result.permission_denials (its hook, yoke's gate, denied it), keyed as the gate
// keys qwen's calls (tool and input).
import { describe, expect, it } from 'vitest';
import { createQwenParser } from '../../../effects/adapters/qwen.js';
import { gateCallId } from '../../../policy/gate/gate-call-id.js';
import { feed, sample } from './support/feed-parser.js';

const executed = (stdout: Buffer | string) => {
  const parser = createQwenParser(null);
  feed(parser, { stdout });
  return parser.toolCalls?.();
};

describe('the tool calls qwen ran', () => {
  it('a write and a shell command that ran are two calls, keyed by their tool and input as the gate keys them', () => {
    const notes = { file_path: '/home/dev/repo/notes.md', content: 'STATUS: DONE\n' };
    const shell = { command: 'echo ran > ran.txt', description: 'Run the scripted command', is_background: false };
    expect(executed(sample('qwen-0.24.4-stream-json-tool-write-shell.stdout.jsonl'))).toEqual([
      { tool: 'write_file', match: { by: 'callId', callId: gateCallId(null, 'write_file', notes) }, summary: 'write_file /home/dev/repo/notes.md' },
      { tool: 'run_shell_command', match: { by: 'callId', callId: gateCallId(null, 'run_shell_command', shell) }, summary: 'run_shell_command echo ran > ran.txt' },
    ]);
  });

  it('a call the gate denied did not run: it is not counted (a hold on it would blame the gate\'s own denial)', () => {
    expect(executed(sample('qwen-0.24.4-stream-json-hook-denied.stdout.jsonl'))).toEqual([]);
  });

  it('an error result is not counted: qwen does not say whether the call ran (invalid parameters never reach the hook)', () => {
    const use = { type: 'assistant', message: { content: [{ type: 'tool_use', id: 'c1', name: 'read_file', input: { absolute_path: 'relative' } }] } };
    const result = { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 'c1', is_error: true, content: 'invalid parameters' }] } };
    expect(executed(`${JSON.stringify(use)}\n${JSON.stringify(result)}\n`)).toEqual([]);
  });
});
