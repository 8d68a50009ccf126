import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { procStatFields } from '../../../effects/process/proc-stat.js';
import { liveGroupMembers, signalGroup, terminateGroup, waitForGroupExit } from '../../../effects/process/terminate-group.js';

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) {
    if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
  }
});

function startGroup(command: string): number {
  const child = spawn('sh', ['-c', command], { detached: true, stdio: 'ignore' });
  started.push(child);
  if (child.pid === undefined) throw new Error('spawn failed');
  return child.pid;
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('signalGroup', () => {
  it('returns false instead of throwing when the group does not exist', () => {
    expect(signalGroup(2 ** 22 + 3, 0)).toBe(false);
  });
});

describe('liveGroupMembers', () => {
  it('does not count zombies', async () => {
    // `sleep 0` becomes a zombie whose parent (sh exec'd into `sleep 100`) never reaps it.
    const pid = startGroup('sleep 0 & exec sleep 100');
    const zombie = async (): Promise<number | undefined> => {
      const children = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
      return children.split(' ').map(Number).find((child) => procStatFields(child)?.[0] === 'Z');
    };
    while ((await zombie()) === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(signalGroup(pid, 0)).toBe(true);
    expect(liveGroupMembers(pid)).toEqual([pid]);
  });
});

describe('terminateGroup / waitForGroupExit', () => {
  it('times out while the group lives, then sees it gone after termination', async () => {
    const pid = startGroup('sleep 100 & wait');
    await until(() => liveGroupMembers(pid).length === 2);
    expect(await waitForGroupExit(pid, 50)).toBe(false);
    await terminateGroup(pid, 500);
    expect(await waitForGroupExit(pid, 0)).toBe(true);
  });
});
