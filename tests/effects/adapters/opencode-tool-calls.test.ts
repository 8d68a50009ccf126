// The tool calls OpenCode reports as executed: each tool_use part whose state is `completed`, keyed
// as the gate keys opencode's calls (tool and the plugin's args, which are the part's state.input).
import { describe, expect, it } from 'vitest';
import { createOpencodeParser } from '../../../effects/adapters/opencode.js';
import { gateCallId } from '../../../policy/gate/gate-call-id.js';
import { feed, sample } from './support/feed-parser.js';

const executed = (stdout: Buffer | string) => {
  const parser = createOpencodeParser(null);
  feed(parser, { stdout });
  return parser.toolCalls?.();
};

describe('the tool calls opencode ran', () => {
  it('a write and a bash command that completed are two calls, keyed by their tool and input as the gate keys them', () => {
    const write = { filePath: '/home/dev/repo/notes.md', content: 'STATUS: DONE\n' };
    expect(executed(sample('opencode-1.18.33-json-tool-write-bash.stdout.jsonl'))).toEqual([
      { tool: 'write', match: { by: 'callId', callId: gateCallId(null, 'write', write) }, summary: 'write /home/dev/repo/notes.md' },
      { tool: 'bash', match: { by: 'callId', callId: gateCallId(null, 'bash', { command: 'echo ran > ran.txt' }) }, summary: 'bash echo ran > ran.txt' },
    ]);
  });

  it('a call that ended in an error (here: rejected for want of permission, as a refusal of the gate\'s plugin ends) is not counted', () => {
    expect(executed(sample('opencode-1.18.33-json-permission-rejected.stdout.jsonl'))).toEqual([]);
  });
});
