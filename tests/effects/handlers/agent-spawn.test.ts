import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EffectAborted, type EffectContext } from '../../../effects/handler.js';
import type { EffectParams } from '../../../machines/effects.js';
import { isSameProcess } from '../../../effects/process/process-identity.js';
import { spawnAgent } from '../../../effects/handlers/agent-spawn.js';
import { liveGroupMembers } from '../../../effects/process/terminate-group.js';
import { makeContext } from '../support/effect-context.js';
import { makeProject, type TempProject } from '../support/temp-project.js';

let p: TempProject;
beforeEach(async () => {
  p = await makeProject({}, { git: false });
});
afterEach(async () => {
  await p.cleanup();
});

function params(command: string, overrides: Partial<EffectParams<'agent.spawn'>> = {}): EffectParams<'agent.spawn'> {
  return { role: 'worker', iteration: 2, agent: { kind: 'cmd', command }, model: null, prompt: 'do the work\n', idleTimeoutMs: 0, ...overrides };
}
const loopText = (rel: string): Promise<string> => readFile(join(p.loopDir, rel), 'utf8');

describe('agent.spawn with the cmd adapter', () => {
  it('gives the prompt on stdin (then EOF), runs in the root, and streams output live and to a transcript', async () => {
    const t = makeContext(p.root, p.loopDir);
    const result = await spawnAgent.execute(params('cat; pwd; echo warn >&2'), t.ctx);
    expect(result).toMatchObject({ outcome: 'exited', exitCode: 0, signal: null, usage: null });
    expect(result.transcript).toBe('.journal/transcripts/2-worker-RUN1-7-0.log');
    expect(t.stdout()).toBe(`do the work\n${p.root}\n`);
    expect(t.stderr()).toBe('warn\n');
    const transcript = await loopText(result.transcript);
    expect(transcript.split('\n')[0]).toBe('# yoke worker agent, iteration 2, call RUN1/7/0: cat; pwd; echo warn >&2');
    expect(transcript).toContain(`do the work\n${p.root}\n`);
    expect(transcript).toContain('warn\n');
    expect(spawnAgent.policy).toBe('surface');
  });

  it('sets the YOKE_* environment with absolute paths, and a usage file that does not pre-exist', async () => {
    const usageDir = join(p.loopDir, '.journal', 'usage');
    await mkdir(usageDir, { recursive: true });
    await writeFile(join(usageDir, 'RUN1-7-0.json'), '{"input_tokens": 999}');
    const names = ['YOKE_CALL', 'YOKE_ITERATION', 'YOKE_LOOP_DIR', 'YOKE_MODEL', 'YOKE_ROLE', 'YOKE_RUN', 'YOKE_USAGE_FILE'];
    const dump = names.map((name) => `echo "${name}=$${name}"`).join('; ');
    const script = `{ ${dump}; } > "$YOKE_LOOP_DIR/env-seen"; test -e "$YOKE_USAGE_FILE" && echo pre-existing`;
    const t = makeContext(p.root, p.loopDir);
    const result = await spawnAgent.execute(params(script, { role: 'judge', iteration: 4, model: 'big-model' }), t.ctx);
    expect(t.stdout()).toBe('');
    expect(result.usage).toBeNull();
    expect((await loopText('env-seen')).trim().split('\n')).toEqual([
      'YOKE_CALL=RUN1/7/0',
      'YOKE_ITERATION=4',
      `YOKE_LOOP_DIR=${p.loopDir}`,
      'YOKE_MODEL=big-model',
      'YOKE_ROLE=judge',
      'YOKE_RUN=RUN1',
      `YOKE_USAGE_FILE=${join(usageDir, 'RUN1-7-0.json')}`,
    ]);
  });

  it('records the process identity right after spawn', async () => {
    let seenAlive = false;
    const t = makeContext(p.root, p.loopDir);
    const ctx: EffectContext = {
      ...t.ctx,
      recordProcess: (info) => {
        seenAlive = isSameProcess(info.pid, info.startTime);
        t.processes.push(info);
      },
    };
    await spawnAgent.execute(params('sleep 0.1'), ctx);
    expect(t.processes).toHaveLength(1);
    expect(seenAlive).toBe(true);
  });

  it('never overwrites a transcript: the same key twice gives two files', async () => {
    const t = makeContext(p.root, p.loopDir);
    const first = await spawnAgent.execute(params('echo one'), t.ctx);
    const second = await spawnAgent.execute(params('echo two'), t.ctx);
    expect(first.transcript).toBe('.journal/transcripts/2-worker-RUN1-7-0.log');
    expect(second.transcript).toBe('.journal/transcripts/2-worker-RUN1-7-0.2.log');
    expect(await loopText(first.transcript)).toContain('one\n');
    expect(await loopText(second.transcript)).toContain('two\n');
    expect(await readdir(join(p.loopDir, '.journal', 'transcripts'))).toHaveLength(2);
  });

  it('reads partial usage from $YOKE_USAGE_FILE as nulls, and warns about an invalid one', async () => {
    const t = makeContext(p.root, p.loopDir);
    const partial = await spawnAgent.execute(params(`echo '{"output_tokens": 42, "model": "m"}' > "$YOKE_USAGE_FILE"`), t.ctx);
    expect(partial.usage).toEqual({ inputTokens: null, outputTokens: 42, cacheReadTokens: null, cacheWriteTokens: null, costUsd: null, model: 'm' });
    const invalid = await spawnAgent.execute(params(`echo 'not json' > "$YOKE_USAGE_FILE"`), t.ctx);
    expect(invalid.usage).toBeNull();
    expect(t.warnings).toHaveLength(1);
    expect(t.warnings[0]).toContain(join(p.loopDir, '.journal', 'usage', 'RUN1-7-0.json'));
  });

  it('kills the agent after idleTimeoutMs without output and reports the exit code as recorded', async () => {
    const t = makeContext(p.root, p.loopDir);
    const idle = await spawnAgent.execute(params('echo started; sleep 100', { idleTimeoutMs: 300 }), t.ctx);
    expect(idle).toMatchObject({ outcome: 'idle-timeout', exitCode: null });
    const failed = await spawnAgent.execute(params('exit 7'), t.ctx);
    expect(failed).toMatchObject({ outcome: 'exited', exitCode: 7 });
  });

  it('on abort kills the agent group and rethrows EffectAborted, keeping the transcript', async () => {
    const t = makeContext(p.root, p.loopDir);
    const running = spawnAgent.execute(params('echo working; sleep 100 & sleep 100'), t.ctx);
    while (!t.stdout().includes('working')) await new Promise((resolve) => setTimeout(resolve, 10));
    t.abort.abort();
    await expect(running).rejects.toBeInstanceOf(EffectAborted);
    const [leader] = t.processes;
    expect(leader && isSameProcess(leader.pid, leader.startTime)).toBe(false);
    expect(liveGroupMembers(leader?.pid ?? 0)).toEqual([]);
    expect(await loopText('.journal/transcripts/2-worker-RUN1-7-0.log')).toContain('working\n');
  });

  it('classifies a cmd call by its exit: 0 ok, else crashed with the exit code', async () => {
    const t = makeContext(p.root, p.loopDir);
    const before = Date.now();
    const ok = await spawnAgent.execute(params('true'), t.ctx);
    expect(ok).toMatchObject({ classification: 'ok', detail: null, retryAfterMs: null });
    expect(ok.endedAt).toBeGreaterThanOrEqual(before);
    expect(ok.endedAt).toBeLessThanOrEqual(Date.now());
    const failed = await spawnAgent.execute(params('echo "no model configured" >&2; exit 7'), t.ctx);
    expect(failed).toMatchObject({ outcome: 'exited', exitCode: 7, classification: 'crashed', detail: 'exit 7: no model configured' });
    const idle = await spawnAgent.execute(params('sleep 100', { idleTimeoutMs: 200 }), t.ctx);
    expect(idle).toMatchObject({ outcome: 'idle-timeout', classification: 'idle-timeout' });
  });

  it('kills the agent at the hard timeoutMs even while it keeps printing', async () => {
    const t = makeContext(p.root, p.loopDir);
    const result = await spawnAgent.execute(params('while true; do echo tick; sleep 0.05; done', { idleTimeoutMs: 10_000, timeoutMs: 400 }), t.ctx);
    expect(result).toMatchObject({ outcome: 'timed-out', classification: 'timed-out', detail: 'still running after 400ms (agent-timeout): the agent was killed' });
    expect(result.durationMs).toBeLessThan(5_000);
  });
});

describe('agent.spawn with the built-in adapters (a fake CLI on PATH)', () => {
  const SAMPLES = join(import.meta.dirname, '..', 'adapters', 'samples');
  const SH = execFileSync('sh', ['-c', 'command -v sh']).toString().trim();
  let bin: string;
  let savedPath: string | undefined;
  beforeEach(async () => {
    bin = join(p.root, 'fake-bin');
    await mkdir(bin);
    savedPath = process.env.PATH;
    process.env.PATH = `${bin}:${savedPath ?? ''}`;
  });
  afterEach(() => {
    process.env.PATH = savedPath;
  });

  /** A `name` executable that records its stdin and argv, prints `sample` and exits with `code`. */
  async function fakeCli(name: string, sample: string, code = 0, after = ''): Promise<void> {
    const script = [
      '#!/bin/sh',
      'cat > "$YOKE_LOOP_DIR/stdin-seen"',
      'printf "%s\\n" "$@" > "$YOKE_LOOP_DIR/argv-seen"',
      `cat '${join(SAMPLES, sample)}'`,
      after,
      `exit ${code}`,
    ].join('\n');
    await writeFile(join(bin, name), `${script}\n`, { mode: 0o755 });
  }

  it('claude: prompt on stdin, the production flags, usage and classification from the result object', async () => {
    await fakeCli('claude', 'claude-2.1.332-stream-json-tool-write.jsonl');
    const t = makeContext(p.root, p.loopDir);
    const result = await spawnAgent.execute(params('unused', { agent: { kind: 'claude' }, model: 'opus' }), t.ctx);
    expect(result).toMatchObject({ outcome: 'exited', exitCode: 0, classification: 'ok', detail: null, retryAfterMs: null });
    expect(result.usage).toEqual({ inputTokens: 2468, outputTokens: 112, cacheReadTokens: 400, cacheWriteTokens: 200, reasoningTokens: 0, costUsd: 0.013192000000000002, model: 'claude-opus-5-5' });
    expect(await loopText('stdin-seen')).toBe('do the work\n');
    expect((await loopText('argv-seen')).trim().split('\n')).toEqual(['-p', '--output-format', 'stream-json', '--verbose', '--permission-mode', 'acceptEdits', '--model', 'opus']);
    // live output and the transcript are the CLI's own stream, unchanged
    expect(t.stdout()).toBe((await readFile(join(SAMPLES, 'claude-2.1.332-stream-json-tool-write.jsonl'))).toString());
    expect(await loopText(result.transcript)).toContain('"total_cost_usd":0.013192000000000002');
  });

  it('claude: an API error is classified from the result, not the exit code; the usage file is not read', async () => {
    await fakeCli('claude', 'claude-2.1.332-json-error-401-noretry.json', 1, 'echo \'{"input_tokens": 5}\' > "$YOKE_USAGE_FILE"');
    const t = makeContext(p.root, p.loopDir);
    const result = await spawnAgent.execute(params('unused', { agent: { kind: 'claude' } }), t.ctx);
    expect(result).toMatchObject({ exitCode: 1, classification: 'auth-error', detail: 'HTTP 401 from the model API: Failed to authenticate. API Error: 401 mock error 401' });
    expect(result.usage?.inputTokens).toBe(0);
  });

  it('claude: killed at the hard timeout after its result keeps the usage but says timed-out', async () => {
    await fakeCli('claude', 'claude-2.1.332-stream-json-text.jsonl', 0, 'sleep 30');
    const t = makeContext(p.root, p.loopDir);
    const result = await spawnAgent.execute(params('unused', { agent: { kind: 'claude' }, timeoutMs: 500 }), t.ctx);
    expect(result).toMatchObject({ outcome: 'timed-out', classification: 'timed-out' });
    expect(result.usage?.outputTokens).toBe(56);
  });

  it('codex and gemini: their samples through a real process', async () => {
    await fakeCli('codex', 'codex-0.171.0-exec-json-error-500.jsonl', 1);
    await fakeCli('gemini', 'gemini-0.61.0-stream-json-tool-write_file.jsonl');
    const t = makeContext(p.root, p.loopDir);
    const codex = await spawnAgent.execute(params('unused', { agent: { kind: 'codex' }, model: 'gpt-5.5' }), t.ctx);
    expect(codex).toMatchObject({ classification: 'server-error', usage: null });
    expect((await loopText('argv-seen')).trim().split('\n')).toEqual(['exec', '--json', '--skip-git-repo-check', '--sandbox', 'workspace-write', '-m', 'gpt-5.5', '-']);
    const gemini = await spawnAgent.execute(params('unused', { agent: { kind: 'gemini' } }), t.ctx);
    expect(gemini).toMatchObject({ classification: 'ok', usage: { inputTokens: 2468, outputTokens: 112, model: 'gemini-2.5-pro' } });
    expect(await loopText('stdin-seen')).toBe('do the work\n');
  });

  it('a CLI that is not installed: crashed, saying so', async () => {
    // PATH holds only a directory with sh in it, so no gemini can be found wherever it is installed
    await symlink(SH, join(bin, 'sh'));
    process.env.PATH = bin;
    const t = makeContext(p.root, p.loopDir);
    const result = await spawnAgent.execute(params('unused', { agent: { kind: 'gemini' } }), t.ctx);
    expect(result).toMatchObject({ outcome: 'exited', exitCode: 127, classification: 'crashed', usage: null });
    expect(result.detail).toMatch(/^exit 127 without a result: .*gemini.*not found/);
  });
});
