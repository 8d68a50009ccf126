import { describe, expect, it } from 'vitest';
import { createOpencodeParser, opencodeInvocation } from '../../../effects/adapters/opencode.js';
import type { Usage } from '../../../machines/effects.js';
import { exited, feed, sample } from './support/feed-parser.js';

function usage(input: number, output: number, cacheRead: number, model: string | null = null): Usage {
  return { inputTokens: input, outputTokens: output, cacheReadTokens: cacheRead, cacheWriteTokens: 0, reasoningTokens: 0, costUsd: null, model };
}

const run = (stdout: string, code: number, model: string | null = null, stderr: string | null = null) =>
  feed(createOpencodeParser(model), { stdout: sample(stdout), stderr: stderr === null ? '' : sample(stderr) }, exited(code));

const line = (object: unknown): string => `${JSON.stringify(object)}\n`;
const step = (tokens: Record<string, unknown>, cost = 0): string => line({ type: 'step_finish', part: { type: 'step-finish', reason: 'stop', tokens, cost } });

describe('opencode invocation', () => {
  it('runs `opencode run` with JSON events, the prompt on stdin, the model as provider/model', () => {
    expect(opencodeInvocation(null)).toEqual({ command: 'exec opencode run --format json', env: {} });
    expect(opencodeInvocation('anthropic/claude-sonnet-4-5').command).toBe('exec opencode run --format json -m anthropic/claude-sonnet-4-5');
    expect(opencodeInvocation('m;x').command).toMatch(/-m 'm;x'$/);
  });

  it('with a gate, loads the private plugin through the environment; the command line stays the same', () => {
    const settingsEnv = { OPENCODE_CONFIG_CONTENT: '{"plugin":["file:///tmp/g/yoke-gate.js"]}', OPENCODE_PURE: 'false' };
    expect(opencodeInvocation(null, { command: 'yoke gate --agent opencode', resume: null, settingsEnv })).toEqual({ command: 'exec opencode run --format json', env: settingsEnv });
  });
});

describe('opencode output: every sample (opencode-ai 1.18.33 against the mock model server)', () => {
  const cases: [string, string, string | null, number, { classification: string; detail: string | null; usage: Usage | null; retryAfterMs?: number | null }][] = [
    // the mock sent prompt_tokens 1234 with 200 cached: OpenCode's input excludes the cached tokens
    ['a text turn', 'opencode-1.18.33-json-text.stdout.jsonl', null, 0, { classification: 'ok', detail: null, usage: usage(1034, 56, 200) }],
    ['write, bash, then text: three steps summed', 'opencode-1.18.33-json-tool-write-bash.stdout.jsonl', null, 0, { classification: 'ok', detail: null, usage: usage(430, 45, 20) }],
    ['a write outside the project, rejected by `run`', 'opencode-1.18.33-json-permission-rejected.stdout.jsonl', 'opencode-1.18.33-json-permission-rejected.stderr.txt', 0, {
      classification: 'permission-denied', usage: usage(10, 5, 0),
      detail: '1 tool call was refused without asking (opencode run rejects what needs a permission prompt): write /tmp/outside.txt',
    }],
    ['401', 'opencode-1.18.33-json-error-401.stdout.jsonl', null, 1, { classification: 'auth-error', detail: 'HTTP 401 from the model API: invalid x-api-key', usage: null }],
    ['500, after its own five retries', 'opencode-1.18.33-json-error-500-after-5-retries.stdout.jsonl', null, 1, { classification: 'server-error', detail: 'HTTP 500 from the model API: mock error 500', usage: null }],
    ['429, after its own five retries: the retry-after-ms header is the wait', 'opencode-1.18.33-json-error-429-after-5-retries.stdout.jsonl', null, 1, {
      classification: 'rate-limited', detail: 'HTTP 429 from the model API: rate limit exceeded, retry in 20s', usage: null, retryAfterMs: 10,
    }],
    ['a model the config does not have', 'opencode-1.18.33-json-unknown-model.stdout.jsonl', null, 1, {
      classification: 'crashed', detail: 'opencode reported UnknownError: Unexpected server error. Check server logs for details.', usage: null,
    }],
  ];
  it.each(cases)('%s', (_name, stdout, stderr, code, expected) => {
    expect(run(stdout, code, null, stderr)).toEqual({ retryAfterMs: null, ...expected });
  });

  it('records the model yoke passed (opencode prints none)', () => {
    expect(run('opencode-1.18.33-json-text.stdout.jsonl', 0, 'mock/mock-model').usage?.model).toBe('mock/mock-model');
  });

  it('gives the same outcome when the stream is cut in two at every byte offset', () => {
    const bytes = sample('opencode-1.18.33-json-tool-write-bash.stdout.jsonl');
    const whole = run('opencode-1.18.33-json-tool-write-bash.stdout.jsonl', 0);
    for (let cut = 0; cut <= bytes.length; cut += 1) expect(feed(createOpencodeParser(null), { stdout: bytes }, exited(0), [cut])).toEqual(whole);
  });
});

describe('opencode output: cases the samples do not show', () => {
  it('a priced model: the summed cost is kept; reasoning and cache writes as reported', () => {
    const out = step({ input: 100, output: 10, reasoning: 4, cache: { read: 5, write: 7 } }, 0.25) + step({ input: 50, output: 5, reasoning: 1, cache: { read: 0, write: 3 } }, 0.5);
    expect(feed(createOpencodeParser('anthropic/claude-sonnet-4-5'), { stdout: out }).usage).toEqual({
      inputTokens: 150, outputTokens: 15, cacheReadTokens: 5, cacheWriteTokens: 10, reasoningTokens: 5, costUsd: 0.75, model: 'anthropic/claude-sonnet-4-5',
    });
  });

  it('a step without a field makes that total unknown, never a partial sum', () => {
    const out = step({ input: 100, output: 10, cache: { read: 5, write: 0 } }) + step({ output: 5, cache: { read: 0, write: 0 } });
    expect(feed(createOpencodeParser(null), { stdout: out }).usage).toMatchObject({ inputTokens: null, outputTokens: 15, reasoningTokens: null });
  });

  it('a ProviderAuthError is an authentication failure; a rate limit without a status is read from its words', () => {
    const auth = line({ type: 'error', error: { name: 'ProviderAuthError', data: { providerID: 'anthropic', message: 'no API key found' } } });
    expect(feed(createOpencodeParser(null), { stdout: auth }, exited(1))).toEqual({ usage: null, classification: 'auth-error', detail: 'opencode could not authenticate: no API key found', retryAfterMs: null });
    const limited = line({ type: 'error', error: { name: 'APIError', data: { message: 'Rate limit reached, please try again in 12s' } } });
    expect(feed(createOpencodeParser(null), { stdout: limited }, exited(1))).toMatchObject({ classification: 'rate-limited', retryAfterMs: 12_000 });
  });

  it('an error after some steps keeps their usage', () => {
    const out = step({ input: 100, output: 10, reasoning: 0, cache: { read: 0, write: 0 } }) + line({ type: 'error', error: { name: 'APIError', data: { message: 'mock error 503', statusCode: 503 } } });
    expect(feed(createOpencodeParser(null), { stdout: out }, exited(1))).toMatchObject({ classification: 'server-error', usage: { inputTokens: 100 } });
  });

  it('no finished step and no error: crashed, with the last stderr line', () => {
    expect(feed(createOpencodeParser(null), { stderr: 'Error: You must provide a message or a command\n' }, exited(1))).toEqual({
      usage: null, classification: 'crashed', detail: 'exit 1 without a finished step: Error: You must provide a message or a command', retryAfterMs: null,
    });
  });
});
