// The tool calls Claude Code reports as executed: every tool_result except those its
// tool_result_meta marks as not executed (a hook's deny, a permission rule, the user).
import { describe, expect, it } from 'vitest';
import { createClaudeParser } from '../../../effects/adapters/claude.js';
import { feed, sample } from './support/feed-parser.js';

const executed = (name: string) => {
  const parser = createClaudeParser();
  feed(parser, { stdout: sample(name) });
  return parser.toolCalls?.();
};

describe('the tool calls claude ran', () => {
  it('a Write that ran is named by its tool-use id, which is the call key the gate journals', () => {
    expect(executed('claude-2.1.332-stream-json-tool-write.jsonl')).toEqual([
      { tool: 'Write', match: { by: 'callId', callId: 'toolu_mock_1' }, summary: 'Write /home/dev/project/notes.md' },
    ]);
  });

  it('a call a PreToolUse hook denied, or the user rejected, did not run', () => {
    expect(executed('claude-hooks/stream-json-PreToolUse-deny-json.jsonl')).toEqual([]);
    expect(executed('claude-hooks/stream-json-PreToolUse-deny-exit2.jsonl')).toEqual([]);
    expect(executed('claude-2.1.332-stream-json-tool-denied-default-mode.jsonl')).toEqual([]);
  });

  it('an error result with no permission decision (malformed input, an unknown tool) did not run; an accepted call that failed did', () => {
    const parser = createClaudeParser();
    const result = (id: string, meta: unknown[]) => JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'Error', is_error: true }] }, tool_result_meta: meta });
    const accepted = { id: 'toolu_failed', permission_decision: { decision: 'accept', source: 'hook', reason_type: 'hook' } };
    feed(parser, { stdout: `${result('toolu_invalid', [])}\n${result('toolu_failed', [accepted])}\n` });
    expect(parser.toolCalls?.().map((call) => call.match)).toEqual([{ by: 'callId', callId: 'toolu_failed' }]);
  });

  it('a result whose call the stream never showed (a resumed session) still counts, named by its id', () => {
    const parser = createClaudeParser();
    const result = { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_held', content: 'ok' }] } };
    feed(parser, { stdout: `${JSON.stringify(result)}\n` });
    expect(parser.toolCalls?.()).toEqual([{ tool: '?', match: { by: 'callId', callId: 'toolu_held' }, summary: 'tool call toolu_held' }]);
  });
});
