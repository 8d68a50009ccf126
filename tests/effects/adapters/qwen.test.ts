import { describe, expect, it } from 'vitest';
import { createQwenParser, qwenInvocation } from '../../../effects/adapters/qwen.js';
import type { Usage } from '../../../machines/effects.js';
import { exited, feed, sample } from './support/feed-parser.js';

function usage(input: number, output: number, cacheRead: number | null, model: string | null = 'mock-model'): Usage {
  return { inputTokens: input, outputTokens: output, cacheReadTokens: cacheRead, cacheWriteTokens: null, costUsd: null, model };
}

const run = (name: string, code: number, model: string | null = null) =>
  feed(createQwenParser(model), { stdout: sample(`${name}.stdout.jsonl`) }, exited(code));

const line = (object: unknown): string => `${JSON.stringify(object)}\n`;

describe('qwen invocation', () => {
  it('runs qwen headless with stream-json and yolo, the prompt on stdin (no -p)', () => {
    expect(qwenInvocation(null)).toEqual({ command: 'exec qwen --output-format stream-json --approval-mode yolo', env: {} });
    expect(qwenInvocation('qwen3-coder-plus').command).toBe('exec qwen --output-format stream-json --approval-mode yolo -m qwen3-coder-plus');
    expect(qwenInvocation('m;x').command).toMatch(/-m 'm;x'$/);
  });

  it('with a gate, names the private settings file that carries the hook; the command line stays the same', () => {
    const settingsEnv = { QWEN_CODE_SYSTEM_SETTINGS_PATH: '/tmp/s/settings.json', QWEN_CODE_SYSTEM_DEFAULTS_PATH: '/etc/qwen-code/system-defaults.json' };
    expect(qwenInvocation(null, { command: 'yoke gate --agent qwen', resume: null, settingsEnv })).toEqual({ command: 'exec qwen --output-format stream-json --approval-mode yolo', env: settingsEnv });
  });
});

describe('qwen output: every sample (@qwen-code/qwen-code 0.24.4 against the mock model server)', () => {
  const cases: [string, string, number, { classification: string; detail: string | null; usage: Usage | null; retryAfterMs?: number | null }][] = [
    // the mock sent prompt_tokens 1234 with 200 cached: qwen's input includes them
    ['a text turn', 'qwen-0.24.4-stream-json-text', 0, { classification: 'ok', detail: null, usage: usage(1234, 56, 200) }],
    ['write_file, run_shell_command, then text: qwen totals the three requests', 'qwen-0.24.4-stream-json-tool-write-shell', 0, { classification: 'ok', detail: null, usage: usage(450, 45, 20) }],
    ['a PreToolUse hook denied the shell call', 'qwen-0.24.4-stream-json-hook-denied', 0, {
      classification: 'permission-denied', detail: '1 tool call was denied: run_shell_command echo ran > ran.txt', usage: usage(20, 10, 0),
    }],
    ['401', 'qwen-0.24.4-stream-json-error-401', 1, { classification: 'auth-error', detail: 'HTTP 401 from the model API: invalid x-api-key', usage: usage(0, 0, 0) }],
    ['500 after its own 7 attempts', 'qwen-0.24.4-stream-json-error-500-after-7-attempts', 1, { classification: 'server-error', detail: 'HTTP 500 from the model API: mock error 500', usage: usage(0, 0, 0) }],
    ['429 after its own 7 attempts: the wait from its words', 'qwen-0.24.4-stream-json-error-429-after-7-attempts', 1, {
      classification: 'rate-limited', usage: usage(0, 0, 0), retryAfterMs: 20_000,
      detail: expect.stringMatching(/^HTTP 429 from the model API: rate limit exceeded, retry in 20s$/) as string,
    }],
    ['no API key', 'qwen-0.24.4-no-api-key', 1, {
      classification: 'auth-error', usage: usage(0, 0, null, null),
      detail: "the model API failed: Missing API key for OpenAI-compatible auth. Set settings.security.auth.apiKey, or set the 'OPENAI_API_KEY' environment variable.",
    }],
  ];
  it.each(cases)('%s', (_name, name, code, expected) => {
    expect(run(name, code)).toEqual({ retryAfterMs: null, ...expected });
  });

  it('the turn limit: exit 53 with no result line, the reason on stderr', () => {
    const out = feed(createQwenParser(null), {
      stdout: sample('qwen-0.24.4-stream-json-max-session-turns.stdout.jsonl'), stderr: sample('qwen-0.24.4-stream-json-max-session-turns.stderr.txt'),
    }, exited(53));
    expect(out).toEqual({
      usage: null, classification: 'max-turns', retryAfterMs: null,
      detail: 'qwen reached its session turn limit (exit 53): Reached max session turns for this session. Increase the number of turns by specifying maxSessionTurns in settings.json.',
    });
  });

  it('gives the same outcome when the stream is cut in two at every byte offset', () => {
    const bytes = sample('qwen-0.24.4-stream-json-tool-write-shell.stdout.jsonl');
    const whole = run('qwen-0.24.4-stream-json-tool-write-shell', 0);
    for (let cut = 0; cut <= bytes.length; cut += 1) expect(feed(createQwenParser(null), { stdout: bytes }, exited(0), [cut])).toEqual(whole);
  });
});

describe('qwen output: cases the samples do not show', () => {
  it('a cache write is kept where the provider reports one; the model falls back to the one yoke passed', () => {
    const out = line({ type: 'result', subtype: 'success', is_error: false, usage: { input_tokens: 10, output_tokens: 2, cache_read_input_tokens: 1, cache_creation_input_tokens: 4 }, permission_denials: [] });
    expect(feed(createQwenParser('qwen3-coder-plus'), { stdout: out }).usage).toEqual({ ...usage(10, 2, 1, 'qwen3-coder-plus'), cacheWriteTokens: 4 });
  });

  it('an API error without a status is a server error; an unrecognized error a crash', () => {
    const failed = (message: string) => line({ type: 'result', subtype: 'error_during_execution', is_error: true, usage: { input_tokens: 0, output_tokens: 0 }, error: { message } });
    expect(feed(createQwenParser(null), { stdout: failed('[API Error: Connection error.]') }, exited(1)).classification).toBe('server-error');
    expect(feed(createQwenParser(null), { stdout: failed('Something odd') }, exited(1))).toMatchObject({ classification: 'crashed', detail: 'qwen reported an error: Something odd' });
  });

  it('no output at all: crashed', () => {
    expect(feed(createQwenParser(null), {}, exited(1))).toEqual({ usage: null, classification: 'crashed', detail: 'exit 1 without a result', retryAfterMs: null });
  });
});
