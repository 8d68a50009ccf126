import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EffectAborted } from '../../../effects/handler.js';
import { isSameProcess, processStartTime } from '../../../effects/process/process-identity.js';
import { runInProcessGroup, type ProcessGroupOptions } from '../../../effects/process/process-group.js';
import { liveGroupMembers } from '../../../effects/process/terminate-group.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'yoke-pg-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Run with defaults; collects stdout/stderr text. */
function run(command: string, overrides: Partial<ProcessGroupOptions> = {}) {
  const out = { stdout: '', stderr: '', spawned: [] as { pid: number; startTime: string | null }[] };
  const promise = runInProcessGroup({
    command,
    cwd: dir,
    env: { ...process.env, PG_TEST: 'yes' },
    onStdout: (chunk) => (out.stdout += chunk.toString()),
    onStderr: (chunk) => (out.stderr += chunk.toString()),
    idleTimeoutMs: 0,
    timeoutMs: 0,
    signal: new AbortController().signal,
    effect: 'check.run',
    onSpawn: (pid, startTime) => out.spawned.push({ pid, startTime }),
    ...overrides,
  });
  return { out, promise };
}

/** pids a command wrote to `pids` (one per line), with their start times, once all exist. */
async function recordedPids(count: number): Promise<{ pid: number; startTime: string | null }[]> {
  for (;;) {
    const text = await readFile(join(dir, 'pids'), 'utf8').catch(() => '');
    const pids = text.split('\n').filter(Boolean).map(Number);
    if (pids.length >= count) return pids.map((pid) => ({ pid, startTime: processStartTime(pid) }));
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const twoSleepers = 'sleep 100 & echo $! >> pids; sleep 100 & echo $! >> pids; wait';

describe('runInProcessGroup', () => {
  it('runs sh -c in cwd with env, streams both outputs, reports the exit code', async () => {
    const { out, promise } = run('echo "$PG_TEST in $(pwd)"; echo oops >&2; exit 3');
    const result = await promise;
    expect(result).toMatchObject({ outcome: 'exited', exitCode: 3, signal: null, error: null });
    expect(out.stdout).toBe(`yes in ${dir}\n`);
    expect(out.stderr).toBe('oops\n');
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('delivers output while the command still runs', async () => {
    let firstChunkAt = 0;
    const begun = performance.now();
    const { promise } = run('echo early; sleep 0.4; echo late', {
      onStdout: () => (firstChunkAt ||= performance.now() - begun),
    });
    const result = await promise;
    expect(firstChunkAt).toBeLessThan(result.durationMs - 200);
  });

  it('calls onSpawn synchronously with the leader pid and its start time', async () => {
    const { out, promise } = run('sleep 0.2');
    expect(out.spawned).toHaveLength(1);
    const spawned = out.spawned[0];
    expect(spawned && isSameProcess(spawned.pid, spawned.startTime)).toBe(true);
    await promise;
  });

  it('writes stdin text and closes stdin, so cat terminates', async () => {
    const { out, promise } = run('cat', { stdin: 'the prompt\n' });
    expect((await promise).exitCode).toBe(0);
    expect(out.stdout).toBe('the prompt\n');
  });

  it('closes stdin even without text', async () => {
    const { out, promise } = run('cat; echo end');
    expect((await promise).exitCode).toBe(0);
    expect(out.stdout).toBe('end\n');
  });

  it('on abort kills the whole group, waits for it, and rejects with EffectAborted', async () => {
    const abort = new AbortController();
    const { out, promise } = run(twoSleepers, { signal: abort.signal, effect: 'agent.spawn' });
    const sleepers = await recordedPids(2);
    abort.abort();
    await expect(promise).rejects.toBeInstanceOf(EffectAborted);
    await expect(promise).rejects.toMatchObject({ kind: 'agent.spawn' });
    for (const { pid, startTime } of sleepers) expect(isSameProcess(pid, startTime)).toBe(false);
    expect(liveGroupMembers(out.spawned[0]?.pid ?? 0)).toEqual([]);
  });

  it('rejects at once without spawning when already aborted', async () => {
    const abort = new AbortController();
    abort.abort();
    const { out, promise } = run('echo never', { signal: abort.signal });
    await expect(promise).rejects.toBeInstanceOf(EffectAborted);
    expect(out.spawned).toEqual([]);
  });

  it('kills the group after idleTimeoutMs without output', async () => {
    const { promise } = run(twoSleepers, { idleTimeoutMs: 300 });
    const sleepers = await recordedPids(2);
    const result = await promise;
    expect(result.outcome).toBe('idle-timeout');
    expect(result.exitCode).toBeNull();
    expect(result.signal).toBe('SIGTERM');
    for (const { pid, startTime } of sleepers) expect(isSameProcess(pid, startTime)).toBe(false);
  });

  it('issue 20.1: an idle or hard timeout above Node’s timer limit (a journal from before the cap) does not kill at once', async () => {
    const huge = 2 ** 31 + 3_600_000;
    const { out, promise } = run('sleep 0.2; echo finished', { idleTimeoutMs: huge, timeoutMs: huge });
    const result = await promise;
    expect(result).toMatchObject({ outcome: 'exited', exitCode: 0 });
    expect(out.stdout).toBe('finished\n');
  });

  it('keeps a command alive while it keeps producing output', async () => {
    // Output every 0.2 s for 2.4 s against a 1.2 s idle limit: alive well past the limit, with a
    // margin of 1 s per gap so a loaded machine cannot starve it into a false idle timeout.
    const { promise } = run('for i in 1 2 3 4 5 6 7 8 9 10 11 12; do echo $i; sleep 0.2; done', { idleTimeoutMs: 1200 });
    expect(await promise).toMatchObject({ outcome: 'exited', exitCode: 0 });
  });

  it('kills the group at the hard timeout even while it talks', async () => {
    // The idle limit sits well above the tick gap (even on a loaded machine) and below the hard limit.
    const { promise } = run('while true; do echo tick; sleep 0.05; done', { timeoutMs: 800, idleTimeoutMs: 500 });
    const result = await promise;
    expect(result.outcome).toBe('timed-out');
    expect(result.durationMs).toBeLessThan(2_000);
  });

  it('does not hang when a grandchild keeps stdout open, and kills what the leader left behind', async () => {
    const { out, promise } = run('sleep 100 & echo $! >> pids; echo bye');
    const [sleeper] = await recordedPids(1);
    const result = await promise;
    expect(result).toMatchObject({ outcome: 'exited', exitCode: 0 });
    expect(result.durationMs).toBeLessThan(3_000);
    expect(out.stdout).toBe('bye\n');
    expect(sleeper && isSameProcess(sleeper.pid, sleeper.startTime)).toBe(false);
  });

  it('kills the group and rethrows when onSpawn fails (an unrecorded process must not run on)', async () => {
    let leader = 0;
    const { promise } = run('sleep 100', {
      onSpawn: (pid) => {
        leader = pid;
        throw new Error('journal unavailable');
      },
    });
    await expect(promise).rejects.toThrow('journal unavailable');
    expect(liveGroupMembers(leader)).toEqual([]);
  });

  it('reports spawn-failed when the process cannot start', async () => {
    const { out, promise } = run('echo hi', { cwd: join(dir, 'missing') });
    const result = await promise;
    expect(result).toMatchObject({ outcome: 'spawn-failed', exitCode: null, signal: null });
    expect(result.error).toMatch(/ENOENT/);
    expect(out.spawned).toEqual([]);
  });
});
