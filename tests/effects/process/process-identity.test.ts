import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { isSameProcess, killProcessGroup, processStartTime } from '../../../effects/process/process-identity.js';
import { liveGroupMembers } from '../../../effects/process/terminate-group.js';

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) {
    if (child.pid === undefined) continue;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

/** A detached group `sh -c '<background sleeps>; wait'`, resolved once every member exists. */
async function startGroup(command: string, members: number): Promise<number> {
  const child = spawn('sh', ['-c', command], { detached: true, stdio: 'ignore' });
  started.push(child);
  const pid = child.pid ?? 0;
  while (liveGroupMembers(pid).length < members) await new Promise((resolve) => setTimeout(resolve, 10));
  return pid;
}

describe('processStartTime / isSameProcess', () => {
  it('knows a live process by pid and start time', () => {
    const startTime = processStartTime(process.pid);
    expect(startTime).toMatch(/^\d+$/);
    expect(isSameProcess(process.pid, startTime)).toBe(true);
  });

  it('refuses a different start time (a reused pid) and an unknown one', () => {
    expect(isSameProcess(process.pid, '1')).toBe(false);
    expect(isSameProcess(process.pid, null)).toBe(false);
  });

  it('says no for a process that has exited', async () => {
    const child = spawn('true');
    const startTime = processStartTime(child.pid ?? 0);
    await new Promise((resolve) => child.once('exit', resolve));
    expect(isSameProcess(child.pid ?? 0, startTime)).toBe(false);
  });
});

describe('killProcessGroup', () => {
  it('stops the leader and every grandchild when the leader is the recorded process', async () => {
    const pid = await startGroup('sleep 100 & sleep 100 & wait', 3);
    const members = liveGroupMembers(pid);
    expect(await killProcessGroup(pid, processStartTime(pid), 500)).toBe(true);
    expect(liveGroupMembers(pid)).toEqual([]);
    for (const member of members) expect(isSameProcess(member, processStartTime(member))).toBe(false);
  });

  it('stops members left behind after the leader died', async () => {
    const pid = await startGroup('sleep 100 & sleep 100 & wait', 3);
    const startTime = processStartTime(pid);
    process.kill(pid, 'SIGKILL');
    while (processStartTime(pid) !== null) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(liveGroupMembers(pid)).toHaveLength(2);
    expect(await killProcessGroup(pid, startTime, 500)).toBe(true);
    expect(liveGroupMembers(pid)).toEqual([]);
  });

  it('leaves alone a live leader whose start time differs (pid reused)', async () => {
    const pid = await startGroup('sleep 100 & wait', 2);
    expect(await killProcessGroup(pid, '1', 500)).toBe(false);
    expect(liveGroupMembers(pid)).toHaveLength(2);
  });

  it('does nothing (and does not throw) when the group is already gone', async () => {
    const child = spawn('true', { detached: true });
    const startTime = processStartTime(child.pid ?? 0);
    await new Promise((resolve) => child.once('exit', resolve));
    expect(await killProcessGroup(child.pid ?? 0, startTime, 500)).toBe(false);
  });

  it('escalates to SIGKILL for members that ignore SIGTERM', async () => {
    const pid = await startGroup(`trap '' TERM; sleep 100 & wait`, 2);
    const begun = performance.now();
    expect(await killProcessGroup(pid, processStartTime(pid), 200)).toBe(true);
    expect(liveGroupMembers(pid)).toEqual([]);
    expect(performance.now() - begun).toBeGreaterThanOrEqual(150);
  });
});
