import { describe, expect, it } from 'vitest';
import { codexHookOverride, codexInvocation, createCodexParser } from '../../../effects/adapters/codex.js';
import type { Usage } from '../../../machines/effects.js';
import { exited, feed, sample } from './support/feed-parser.js';

const parse = (name: string, code = 0, model: string | null = 'gpt-5.5') => feed(createCodexParser(model), { stdout: sample(name) }, exited(code));

function usage(input: number, output: number, cached: number, reasoning: number, model: string | null = 'gpt-5.5'): Usage {
  return { inputTokens: input, outputTokens: output, cacheReadTokens: cached, cacheWriteTokens: 0, reasoningTokens: reasoning, costUsd: null, model };
}

describe('codex invocation', () => {
  it('runs codex exec --json in the workspace-write sandbox, reading the prompt from stdin (`-`)', () => {
    expect(codexInvocation(null)).toEqual({ command: 'exec codex exec --json --skip-git-repo-check --sandbox workspace-write -', env: {} });
    expect(codexInvocation('gpt-5.5').command).toBe('exec codex exec --json --skip-git-repo-check --sandbox workspace-write -m gpt-5.5 -');
    expect(codexInvocation('a b$(x)').command).toContain("-m 'a b$(x)' -");
  });

  it('with a gate, adds the run\'s PreToolUse hook as a -c override and lets it run without persisted trust', () => {
    const command = codexInvocation('gpt-5.5', { command: "'/usr/bin/node' '/x y/yoke.js' gate --agent codex", resume: null }).command;
    expect(command).toContain('--dangerously-bypass-hook-trust -c ');
    expect(command.endsWith(' -')).toBe(true);
    expect(codexHookOverride('yoke gate --agent codex')).toBe('hooks.PreToolUse=[{matcher="*",hooks=[{type="command",command="yoke gate --agent codex",timeout=30}]}]');
    // a quote in the command stays inside the TOML string
    expect(codexHookOverride('a "b"')).toContain('command="a \\"b\\""');
  });
});

describe('codex output: every sample', () => {
  const cases: [string, number, { classification: string; detail: string | null; usage: Usage | null }][] = [
    ['codex-0.171.0-exec-json-text.jsonl', 0, { classification: 'ok', detail: null, usage: usage(1234, 56, 200, 7) }],
    ['codex-0.171.0-exec-json-tool-apply_patch.jsonl', 0, { classification: 'ok', detail: null, usage: usage(2468, 112, 400, 14) }],
    ['codex-0.171.0-exec-json-tool-exec_command.jsonl', 0, { classification: 'ok', detail: null, usage: usage(2468, 112, 400, 14) }],
    // In the read-only sandbox a failed command does not even appear in the JSON: the call looks fine.
    ['codex-0.171.0-exec-json-readonly-sandbox-cmd-failed.jsonl', 0, { classification: 'ok', detail: null, usage: usage(2468, 112, 400, 14) }],
    ['codex-0.171.0-exec-json-error-401.jsonl', 1, {
      classification: 'auth-error',
      detail: 'HTTP 401 from the model API: unexpected status 401 Unauthorized: mock error 401, url: http://127.0.0.1:38991/v1/responses',
      usage: null,
    }],
    // recorded here against a mock answering 429 with a Retry-After header: codex passes on no wait
    ['codex-0.171.0-exec-json-error-429.jsonl', 1, {
      classification: 'rate-limited', detail: 'HTTP 429 from the model API: exceeded retry limit, last status: 429 Too Many Requests', usage: null,
    }],
    ['codex-0.171.0-exec-json-error-500.jsonl', 1, {
      classification: 'server-error', detail: 'the model API failed: We’re currently experiencing high demand, which may cause temporary errors.', usage: null,
    }],
  ];
  it.each(cases)('%s', (name, code, expected) => {
    expect(parse(name, code)).toEqual({ ...expected, retryAfterMs: null });
  });

  it('the failure is read from turn.failed even when codex exits 0', () => {
    expect(parse('codex-0.171.0-exec-json-error-401.jsonl', 0).classification).toBe('auth-error');
  });

  it('codex reports no model: the one yoke asked for, or unknown', () => {
    expect(parse('codex-0.171.0-exec-json-text.jsonl', 0, null).usage?.model).toBeNull();
  });

  it('gives the same outcome when the stream is cut in two at every byte offset', () => {
    const bytes = sample('codex-0.171.0-exec-json-tool-exec_command.jsonl');
    const whole = parse('codex-0.171.0-exec-json-tool-exec_command.jsonl');
    for (let cut = 0; cut <= bytes.length; cut += 1) expect(feed(createCodexParser('gpt-5.5'), { stdout: bytes }, exited(0), [cut])).toEqual(whole);
  });
});

describe('codex output: cases the samples do not show', () => {
  const line = (event: object): string => `${JSON.stringify(event)}\n`;
  const completed = (input: number, output: number): string => line({ type: 'turn.completed', usage: { input_tokens: input, output_tokens: output } });

  it('several turn.completed: the last one counts (codex reports usage cumulative since the thread started), never a sum', () => {
    const outcome = feed(createCodexParser(null), { stdout: completed(100, 10) + completed(250, 30) });
    expect(outcome.usage).toEqual({ inputTokens: 250, outputTokens: 30, cacheReadTokens: null, cacheWriteTokens: null, reasoningTokens: null, costUsd: null, model: null });
  });

  it('a rate limit is rate-limited, with the wait the message names', () => {
    const failed = line({ type: 'turn.failed', error: { message: 'Rate limit reached for gpt-5.5 in organization org-x on tokens per min. Please try again in 1.5s.' } });
    expect(feed(createCodexParser(null), { stdout: failed }, exited(1))).toMatchObject({ classification: 'rate-limited', retryAfterMs: 1500 });
    const status = line({ type: 'turn.failed', error: { message: 'exceeded retry limit, last status: 429 Too Many Requests' } });
    expect(feed(createCodexParser(null), { stdout: status }, exited(1))).toMatchObject({ classification: 'rate-limited', detail: expect.stringMatching(/^HTTP 429/) as string, retryAfterMs: null });
  });

  it('a declined command is permission-denied', () => {
    const declined = line({ type: 'item.completed', item: { id: 'item_0', type: 'command_execution', command: 'rm -rf /', status: 'declined' } });
    expect(feed(createCodexParser(null), { stdout: declined + completed(1, 1) })).toMatchObject({ classification: 'permission-denied', detail: '1 action(s) declined: rm -rf /' });
  });

  it('no turn at all: crashed, naming the exit and what codex said', () => {
    const outcome = feed(createCodexParser(null), { stdout: 'not json\n', stderr: "error: unexpected argument '--frobnicate' found\n" }, exited(2));
    expect(outcome).toEqual({ usage: null, classification: 'crashed', detail: "exit 2 before the turn completed: error: unexpected argument '--frobnicate' found", retryAfterMs: null });
    const errorOnly = feed(createCodexParser(null), { stdout: line({ type: 'error', message: 'unexpected status 401 Unauthorized' }) }, exited(1));
    expect(errorOnly.classification).toBe('auth-error');
  });
});
