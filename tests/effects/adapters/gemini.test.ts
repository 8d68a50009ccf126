import { describe, expect, it } from 'vitest';
import { createGeminiParser, geminiInvocation } from '../../../effects/adapters/gemini.js';
import type { Usage } from '../../../machines/effects.js';
import { exited, feed, sample } from './support/feed-parser.js';

function usage(input: number, output: number, cached: number, model: string | null, thoughts?: number): Usage {
  return { inputTokens: input, outputTokens: output, cacheReadTokens: cached, cacheWriteTokens: null, ...(thoughts === undefined ? {} : { reasoningTokens: thoughts }), costUsd: null, model };
}

const run = (stdout: string | null, stderr: string | null, code: number, model: string | null = null) =>
  feed(createGeminiParser(model), { stdout: stdout === null ? '' : sample(stdout), stderr: stderr === null ? '' : sample(stderr) }, exited(code));

describe('gemini invocation', () => {
  it('runs gemini headless with stream-json and yolo, the prompt on stdin (no -p), trusting the project for this call', () => {
    expect(geminiInvocation(null)).toEqual({ command: 'exec gemini --output-format stream-json --approval-mode yolo --skip-trust', env: {} });
    expect(geminiInvocation('gemini-2.5-pro').command).toBe('exec gemini --output-format stream-json --approval-mode yolo --skip-trust -m gemini-2.5-pro');
    expect(geminiInvocation('m;x').command).toMatch(/-m 'm;x'$/);
  });

  it('with a gate, points GEMINI_CLI_HOME at the private home whose settings carry the hook', () => {
    expect(geminiInvocation(null, { command: 'yoke gate --agent gemini', resume: null, home: '/tmp/h' }).env).toEqual({ GEMINI_CLI_HOME: '/tmp/h' });
  });
});

describe('gemini output: every sample', () => {
  // exit codes as gemini gives them: HTTP status mod 256 (401 → 145, 429 → 173, 500 → 244)
  const cases: [string, string | null, string | null, number, { classification: string; detail: string | null; usage: Usage | null; retryAfterMs?: number }][] = [
    ['stream-json tool call', 'gemini-0.61.0-stream-json-tool-write_file.jsonl', null, 0, { classification: 'ok', detail: null, usage: usage(2468, 112, 400, 'gemini-2.5-pro') }],
    ['stream-json text', 'gemini-0.61.0-stream-json-text.jsonl', null, 0, { classification: 'ok', detail: null, usage: usage(1234, 56, 200, 'gemini-2.5-pro') }],
    ['json with a router model', 'gemini-0.61.0-json-text-with-router.json', null, 0, { classification: 'ok', detail: null, usage: usage(2468, 112, 400, 'gemini-3.8-flash', 14) }],
    ['json with a shell tool call', 'gemini-0.61.0-json-tool-run_shell_command.json', null, 0, { classification: 'ok', detail: null, usage: usage(2468, 112, 400, 'gemini-2.5-pro', 14) }],
    ['json mode 401 (report on stderr)', null, 'gemini-0.61.0-error-401.stderr.txt', 145, { classification: 'auth-error', detail: 'HTTP 401 from the model API: mock error 401', usage: null }],
    ['json mode 500 (report on stderr)', null, 'gemini-0.61.0-error-500-maxAttempts1.stderr.txt', 244, { classification: 'server-error', detail: 'HTTP 500 from the model API: mock error 500', usage: null }],
    ['stream-json 401', 'gemini-0.61.0-stream-json-error-401.stdout.jsonl', 'gemini-0.61.0-stream-json-error-401.stderr.txt', 145, {
      classification: 'auth-error', detail: 'HTTP 401 from the model API: mock error 401', usage: usage(0, 0, 0, 'gemini-2.5-pro'),
    }],
    ['stream-json 500', 'gemini-0.61.0-stream-json-error-500.stdout.jsonl', 'gemini-0.61.0-stream-json-error-500.stderr.txt', 244, {
      classification: 'server-error', detail: 'HTTP 500 from the model API: mock error 500', usage: usage(0, 0, 0, 'gemini-2.5-pro'),
    }],
    ['stream-json 429 with a suggested wait', 'gemini-0.61.0-stream-json-error-429.stdout.jsonl', 'gemini-0.61.0-stream-json-error-429.stderr.txt', 173, {
      classification: 'rate-limited', detail: 'HTTP 429 from the model API: Resource exhausted. Please retry in 34s. Suggested retry after 34s.', usage: usage(0, 0, 0, 'gemini-2.5-pro'), retryAfterMs: 34_000,
    }],
    ['untrusted folder (exit 55)', null, 'gemini-0.61.0-untrusted-exit55.stderr.txt', 55, {
      classification: 'crashed', detail: expect.stringMatching(/^exit 55 without a result: Gemini CLI is not running in a trusted directory/) as string, usage: null,
    }],
  ];
  it.each(cases)('%s', (_name, stdout, stderr, code, expected) => {
    expect(run(stdout, stderr, code)).toEqual({ retryAfterMs: null, ...expected });
  });

  it('gives the same outcome when the stream is cut in two at every byte offset', () => {
    const bytes = sample('gemini-0.61.0-stream-json-tool-write_file.jsonl');
    const whole = run('gemini-0.61.0-stream-json-tool-write_file.jsonl', null, 0);
    for (let cut = 0; cut <= bytes.length; cut += 1) expect(feed(createGeminiParser(null), { stdout: bytes }, exited(0), [cut])).toEqual(whole);
  });
});

describe('gemini output: cases the samples do not show', () => {
  it('exit 41 without an API status is an authentication failure; exit 53 the turn limit', () => {
    const auth = feed(createGeminiParser(null), { stderr: 'Please set an Auth method in your settings.json\n' }, exited(41));
    expect(auth).toMatchObject({ classification: 'auth-error', detail: 'gemini could not authenticate (exit 41): Please set an Auth method in your settings.json' });
    expect(feed(createGeminiParser(null), {}, exited(53)).classification).toBe('max-turns');
  });

  it('no output at all: crashed', () => {
    expect(feed(createGeminiParser('gemini-2.5-pro'), {}, exited(1))).toEqual({ usage: null, classification: 'crashed', detail: 'exit 1 without a result', retryAfterMs: null });
  });
});

describe('gemini failures after retries it made itself', () => {
  const retried = 'Attempt 1 failed with status 429. Retrying with backoff...\n';
  const parse = (stderr: string, code: number) => feed(createGeminiParser(null), { stderr }, exited(code));

  it('a retried 429 is not the failure: the turn limit (exit 53) or the last status named decides', () => {
    expect(parse(retried, 53).classification).toBe('max-turns');
    expect(parse(`${retried}Error: request failed with status 500\n`, 244)).toMatchObject({ classification: 'server-error' });
    expect(parse(`${retried}Error: request failed with status 400\n`, 144)).toMatchObject({ classification: 'crashed' });
  });
});
