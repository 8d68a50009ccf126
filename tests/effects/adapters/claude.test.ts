import { describe, expect, it } from 'vitest';
import { finishAgentCall } from '../../../effects/adapters/agent-adapter.js';
import { claudeInvocation, createClaudeParser } from '../../../effects/adapters/claude.js';
import type { Usage } from '../../../machines/effects.js';
import { exited, feed, feedBytewise, sample } from './support/feed-parser.js';

const parse = (name: string, code = 0) => feed(createClaudeParser(), { stdout: sample(name) }, exited(code));

function usage(input: number, output: number, cacheRead: number, cacheWrite: number, costUsd: number, model: string | null, thinking?: number): Usage {
  return { inputTokens: input, outputTokens: output, cacheReadTokens: cacheRead, cacheWriteTokens: cacheWrite, costUsd, model, ...(thinking === undefined ? {} : { reasoningTokens: thinking }) };
}

describe('claude invocation', () => {
  it('runs claude -p with stream-json, --verbose and acceptEdits, the prompt on stdin', () => {
    expect(claudeInvocation(null)).toEqual({ command: 'exec claude -p --output-format stream-json --verbose --permission-mode acceptEdits', env: {} });
    expect(claudeInvocation('claude-opus-4-8[1m]').command).toBe("exec claude -p --output-format stream-json --verbose --permission-mode acceptEdits --model 'claude-opus-4-8[1m]'");
    expect(claudeInvocation("x'; rm -rf /").command).toMatch(/--model 'x'\\''; rm -rf \/'$/);
    expect(claudeInvocation('sonnet').command).not.toMatch(/bypass|dangerously/);
  });
});

describe('claude output: every sample', () => {
  const cases: [string, { classification: string; detail: string | null; usage: Usage | null }][] = [
    ['claude-2.1.197-json-text.json', { classification: 'ok', detail: null, usage: usage(1234, 56, 200, 100, 0.008295, 'claude-opus-4-8[1m]') }],
    ['claude-2.1.197-stream-json-tool-write.jsonl', { classification: 'ok', detail: null, usage: usage(2468, 112, 400, 200, 0.01659, 'claude-opus-4-8[1m]') }],
    ['claude-2.1.332-json-text.json', { classification: 'ok', detail: null, usage: usage(1234, 56, 200, 100, 0.006596000000000001, 'claude-opus-5-5', 0) }],
    ['claude-2.1.332-stream-json-text.jsonl', { classification: 'ok', detail: null, usage: usage(1234, 56, 200, 100, 0.006596000000000001, 'claude-opus-5-5', 0) }],
    ['claude-2.1.332-stream-json-tool-write.jsonl', { classification: 'ok', detail: null, usage: usage(2468, 112, 400, 200, 0.013192000000000002, 'claude-opus-5-5', 0) }],
    ['claude-2.1.332-stream-json-tool-denied-default-mode.jsonl', {
      classification: 'permission-denied', detail: '1 tool call was denied: Write /home/dev/project/notes.md', usage: usage(2468, 112, 400, 200, 0.013192000000000002, 'claude-opus-5-5', 0),
    }],
    ['claude-hooks/stream-json-PreToolUse-deny-exit2.jsonl', { classification: 'permission-denied', detail: '1 tool call was denied: Write /home/dev/project/notes.md', usage: expect.anything() as Usage }],
    ['claude-hooks/stream-json-PreToolUse-deny-json.jsonl', { classification: 'permission-denied', detail: '1 tool call was denied: Write /home/dev/project/notes.md', usage: expect.anything() as Usage }],
    ['claude-2.1.332-json-error-401-noretry.json', {
      classification: 'auth-error', detail: 'HTTP 401 from the model API: Failed to authenticate. API Error: 401 mock error 401', usage: usage(0, 0, 0, 0, 0, null, 0),
    }],
    ['claude-2.1.332-json-error-500-noretry.json', {
      classification: 'server-error', detail: expect.stringMatching(/^HTTP 500 from the model API: API Error: 500 mock error 500\./) as string, usage: usage(0, 0, 0, 0, 0, null, 0),
    }],
    ['claude-2.1.332-json-error_max_turns.json', { classification: 'max-turns', detail: 'Reached maximum number of turns (1)', usage: usage(1234, 56, 200, 100, 0.006596000000000001, 'claude-opus-5-5', 0) }],
  ];
  it.each(cases)('%s', (name, expected) => {
    // the CLI's exit code does not decide: errors end with exit 1, denials with exit 0
    const outcome = parse(name, expected.classification === 'ok' || expected.classification === 'permission-denied' ? 0 : 1);
    expect(outcome).toEqual({ ...expected, retryAfterMs: null });
  });

  it('never sums the per-message usage of the stream (each says output_tokens: 1)', () => {
    expect(parse('claude-2.1.332-stream-json-tool-write.jsonl').usage?.outputTokens).toBe(112);
  });
});

describe('claude output: chunked feeding', () => {
  const name = 'claude-2.1.332-stream-json-tool-write.jsonl';
  const whole = parse(name);

  it('gives the same outcome when the stream is cut in two at every byte offset', () => {
    const bytes = sample(name);
    // the sample holds multi-byte characters (an em dash): some cuts fall inside them
    expect(bytes.toString('utf8')).toContain('—');
    for (let cut = 0; cut <= bytes.length; cut += 1) {
      expect(feed(createClaudeParser(), { stdout: bytes }, exited(0), [cut])).toEqual(whole);
    }
  });

  it('gives the same outcome fed one byte at a time, and without a final newline', () => {
    expect(feedBytewise(createClaudeParser(), sample(name))).toEqual(whole);
    expect(feed(createClaudeParser(), { stdout: sample(name).toString('utf8').trimEnd() })).toEqual(whole);
  });

  it('ignores lines that are not JSON objects', () => {
    const noisy = `warning: something\n[1,2]\n"text"\n{broken\n${sample(name).toString('utf8')}trailing text`;
    expect(feed(createClaudeParser(), { stdout: noisy })).toEqual(whole);
  });
});

describe('claude output: failures without the samples', () => {
  it('no result object: crashed, with the exit and the last stderr line', () => {
    const outcome = feed(createClaudeParser(), { stdout: '{"type":"system","subtype":"init","model":"m"}\n', stderr: 'boot\nError: Invalid API key format\n' }, exited(1));
    expect(outcome).toEqual({ usage: null, classification: 'crashed', detail: 'exit 1 without a result: Error: Invalid API key format', retryAfterMs: null });
  });

  it('HTTP 429 is rate-limited, with the wait when the message gives one', () => {
    const result = { type: 'result', subtype: 'success', is_error: true, api_error_status: 429, result: 'API Error: 429 rate_limit_error: retry after 20 seconds', usage: {} };
    const outcome = feed(createClaudeParser(), { stdout: `${JSON.stringify(result)}\n` }, exited(1));
    expect(outcome).toMatchObject({ classification: 'rate-limited', retryAfterMs: 20_000 });
    expect(outcome.usage).toEqual({ inputTokens: null, outputTokens: null, cacheReadTokens: null, cacheWriteTokens: null, costUsd: null, model: null });
  });

  it('an API error without a status (connection error) is a server error; other errors crash', () => {
    const connection = { type: 'result', is_error: true, api_error_status: null, result: 'API Error: Connection error.' };
    expect(feed(createClaudeParser(), { stdout: JSON.stringify(connection) }, exited(1)).classification).toBe('server-error');
    const other = { type: 'result', is_error: true, subtype: 'error_during_execution', errors: ['tool crashed'] };
    expect(feed(createClaudeParser(), { stdout: JSON.stringify(other) }, exited(1))).toMatchObject({ classification: 'crashed', detail: 'claude reported an error: tool crashed' });
  });

  it('a usage limit or an invalid key said in words (no API status) is classified by its words', () => {
    const limit = { type: 'result', is_error: true, result: 'Claude AI usage limit reached|1764460800' };
    expect(feed(createClaudeParser(), { stdout: JSON.stringify(limit) }, exited(1)).classification).toBe('rate-limited');
    const key = { type: 'result', is_error: true, result: 'Invalid API key · Please run /login' };
    expect(feed(createClaudeParser(), { stdout: JSON.stringify(key) }, exited(1)).classification).toBe('auth-error');
  });

  it('process-level outcomes win over the result, and usage is kept', () => {
    const limits = { idleTimeoutMs: 1_200_000, timeoutMs: 5_400_000 };
    const idle = finishAgentCall(createClaudeParserFed(), { outcome: 'idle-timeout', exitCode: null, signal: 'SIGTERM', error: null }, limits);
    expect(idle).toMatchObject({ classification: 'idle-timeout', detail: 'no output for 20m (idle-timeout): the agent was killed', retryAfterMs: null });
    expect(idle.usage?.outputTokens).toBe(56);
    const hard = finishAgentCall(createClaudeParserFed(), { outcome: 'timed-out', exitCode: null, signal: 'SIGTERM', error: null }, limits);
    expect(hard).toMatchObject({ classification: 'timed-out', detail: 'still running after 1h30m (agent-timeout): the agent was killed' });
    const killed = finishAgentCall(createClaudeParserFed(), { outcome: 'exited', exitCode: null, signal: 'SIGKILL', error: null }, limits);
    expect(killed).toMatchObject({ classification: 'crashed', detail: 'killed by SIGKILL' });
    const unstarted = finishAgentCall(createClaudeParser(), { outcome: 'spawn-failed', exitCode: null, signal: null, error: 'spawn sh ENOENT' }, limits);
    expect(unstarted).toEqual({ usage: null, classification: 'crashed', detail: 'could not start the agent: spawn sh ENOENT', retryAfterMs: null });
  });
});

function createClaudeParserFed() {
  const parser = createClaudeParser();
  parser.stdout(sample('claude-2.1.332-stream-json-text.jsonl'));
  return parser;
}
