// Processes that leave an agent's process group (setsid) are stopped with the call (issue 20,
// item 14): real processes, a real cgroup where this machine lets yoke make one.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openContainment } from '../../../effects/process/containment.js';
import { runInProcessGroup, type ProcessGroupOptions } from '../../../effects/process/process-group.js';
import { isSameProcess, processStartTime } from '../../../effects/process/process-identity.js';
import { killQuietly, markProcesses, type ProcessMark } from '../../support/process-liveness.js';

let dir: string;
const leftovers: ProcessMark[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'yoke-contain-'));
});
afterEach(async () => {
  killQuietly(leftovers.splice(0));
  await rm(dir, { recursive: true, force: true });
});

function run(command: string, overrides: Partial<ProcessGroupOptions> = {}) {
  return runInProcessGroup({
    command,
    cwd: dir,
    env: process.env,
    onStdout: () => undefined,
    onStderr: () => undefined,
    idleTimeoutMs: 0,
    timeoutMs: 0,
    signal: new AbortController().signal,
    effect: 'agent.spawn',
    ...overrides,
  });
}

/** The process a command wrote to `escapee`, with its start time (taken while it surely lives). */
async function escapee(): Promise<{ pid: number; startTime: string | null }> {
  const pid = Number((await readFile(join(dir, 'escapee'), 'utf8')).trim());
  leftovers.push(...markProcesses(pid));
  return { pid, startTime: processStartTime(pid) };
}

/** `setsid` leaves the group (and the session); the pid is the escaped sleep's. */
const SETSID_AND_EXIT = 'setsid sleep 300 & echo $! > escapee; while [ ! -s escapee ]; do :; done';
/** A double fork: the escaped process's parent is gone before anyone can look. */
const DOUBLE_FORK = "setsid sh -c 'sleep 300 & echo $! > escapee'; while [ ! -s escapee ]; do sleep 0.01; done";

/** Can yoke make a cgroup here (root with a writable cgroup2 mount)? The probe's cgroup is removed again. */
const probe = await openContainment('auto', tmpdir());
await probe.stop(0);
const cgroups = probe.kind === 'cgroup';

describe('issue 20.14: a setsid grandchild of the agent outlived the run', () => {
  it('without containment (guards) a setsid grandchild survives the call: the gap this closes', async () => {
    await run(`${SETSID_AND_EXIT}; sleep 0.3`);
    const { pid, startTime } = await escapee();
    expect(isSameProcess(pid, startTime)).toBe(true);
  });

  it.skipIf(!cgroups)('with a cgroup: the setsid grandchild is stopped as the agent exits', async () => {
    const result = await run(SETSID_AND_EXIT, { contain: 'auto' });
    expect(result).toMatchObject({ outcome: 'exited', exitCode: 0 });
    const { pid, startTime } = await escapee();
    expect(isSameProcess(pid, startTime)).toBe(false);
  });

  it.skipIf(!cgroups)('with a cgroup: even a double fork, whose parent is gone at once, is stopped', async () => {
    await run(DOUBLE_FORK, { contain: 'auto' });
    const { pid, startTime } = await escapee();
    expect(isSameProcess(pid, startTime)).toBe(false);
  });

  it.skipIf(!cgroups)('with a cgroup: an escapee that ignores SIGTERM is killed, and on a timeout too', async () => {
    const result = await run(`setsid sh -c 'trap "" TERM; echo $$ > escapee; while :; do sleep 1; done' & while [ ! -s escapee ]; do sleep 0.01; done; sleep 300`, { contain: 'auto', timeoutMs: 500 });
    expect(result.outcome).toBe('timed-out');
    const { pid, startTime } = await escapee();
    expect(isSameProcess(pid, startTime)).toBe(false);
  });

  it('without a cgroup, the descendant watch stops a setsid grandchild it saw while its parent lived', async () => {
    const result = await run(`${SETSID_AND_EXIT}; sleep 0.6`, { contain: 'descendants' });
    expect(result).toMatchObject({ outcome: 'exited', exitCode: 0 });
    const { pid, startTime } = await escapee();
    expect(isSameProcess(pid, startTime)).toBe(false);
  });

  it('the descendant watch cannot see a double fork that is orphaned at once (documented limit)', async () => {
    await run(DOUBLE_FORK, { contain: 'descendants' });
    const { pid, startTime } = await escapee();
    expect(isSameProcess(pid, startTime)).toBe(true);
  });
});
