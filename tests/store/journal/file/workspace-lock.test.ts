// store/journal/file/workspace-lock.ts with real processes: live owners refuse, dead and reused pids are taken over.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processStartTime } from '../../../../effects/process/process-identity.js';
import { acquireLock, lockIsLive, readLock, type LockOwner } from '../../../../store/journal/file/workspace-lock.js';
import { YokeError } from '../../../../errors/yoke-error.js';
import { waitUntil } from '../../../support/process-liveness.js';

const dirs: string[] = [];
const children: ChildProcess[] = [];
const releases: Array<() => void> = [];
afterEach(() => {
  for (const release of releases.splice(0)) release();
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function lockPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'yoke-lock-'));
  dirs.push(dir);
  // the journal folder does not exist yet: acquiring creates it
  return join(dir, '.journal', 'lock');
}

function acquire(path: string, onStale: (owner: LockOwner) => void = () => undefined): () => void {
  const release = acquireLock(path, 'yoke run', onStale);
  releases.push(release);
  return release;
}

/** A live `sleep` child and its kernel start time. */
async function liveProcess(): Promise<{ pid: number; startTime: string }> {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  children.push(child);
  const pid = child.pid ?? 0;
  let startTime: string | null = null;
  await waitUntil(() => (startTime = processStartTime(pid)) !== null, 2_000, 5);
  if (startTime === null) throw new Error('sleep did not start');
  return { pid, startTime };
}

/** The pid and start time of a process that has exited and been reaped. */
async function deadProcess(): Promise<{ pid: number; startTime: string | null }> {
  const child = spawn('sleep', ['0.05'], { stdio: 'ignore' });
  const pid = child.pid ?? 0;
  const startTime = processStartTime(pid);
  await new Promise((resolve) => child.once('exit', resolve));
  return { pid, startTime };
}

function writeOwner(path: string, owner: LockOwner): string {
  mkdirSync(dirname(path), { recursive: true });
  const text = `${JSON.stringify(owner)}\n`;
  writeFileSync(path, text);
  return text;
}

describe('acquireLock', () => {
  it('writes this process as the owner and removes the lock on release', () => {
    const path = lockPath();
    const release = acquire(path);

    expect(readLock(path)).toEqual({ pid: process.pid, startTime: processStartTime(process.pid), command: 'yoke run' });
    release();
    expect(existsSync(path)).toBe(false);
    // free again
    acquire(path);
    expect(readLock(path)?.pid).toBe(process.pid);
  });

  it('refuses a second acquire while the recorded owner is live, naming its pid, and leaves the lock alone', async () => {
    const path = lockPath();
    const owner = await liveProcess();
    const text = writeOwner(path, { pid: owner.pid, startTime: owner.startTime, command: 'yoke run' });
    const stale: LockOwner[] = [];

    let error: unknown = null;
    try {
      acquire(path, (o) => stale.push(o));
    } catch (caught) {
      error = caught;
    }

    expect(error).toBeInstanceOf(YokeError);
    expect((error as YokeError).code).toBe('workspace');
    expect((error as YokeError).message).toContain(String(owner.pid));
    expect((error as YokeError).message).toContain(path);
    expect(stale).toEqual([]);
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect(lockIsLive({ pid: owner.pid, startTime: owner.startTime, command: '' })).toBe(true);
  });

  it('refuses a second acquire by the same process', () => {
    const path = lockPath();
    acquire(path);
    expect(() => acquireLock(path, 'yoke run', () => undefined)).toThrow(YokeError);
    expect(readLock(path)?.pid).toBe(process.pid);
  });

  it('takes over a lock left by a dead process and reports it as stale', async () => {
    const path = lockPath();
    const dead = await deadProcess();
    writeOwner(path, { pid: dead.pid, startTime: dead.startTime, command: 'yoke run' });
    const stale: LockOwner[] = [];

    const release = acquire(path, (o) => stale.push(o));

    expect(stale).toEqual([{ pid: dead.pid, startTime: dead.startTime, command: 'yoke run' }]);
    expect(readLock(path)?.pid).toBe(process.pid);
    release();
    expect(existsSync(path)).toBe(false);
  });

  it('takes over a lock whose pid is alive but started at another time (a reused pid)', async () => {
    const path = lockPath();
    const other = await liveProcess();
    const recorded = String(Number(other.startTime) - 1);
    writeOwner(path, { pid: other.pid, startTime: recorded, command: 'yoke run' });
    const stale: LockOwner[] = [];

    acquire(path, (o) => stale.push(o));

    expect(stale.map((o) => [o.pid, o.startTime])).toEqual([[other.pid, recorded]]);
    expect(readLock(path)).toMatchObject({ pid: process.pid, startTime: processStartTime(process.pid) });
  });

  it('takes over an unreadable lock file', () => {
    const path = lockPath();
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, 'not json');
    acquire(path);
    expect(readLock(path)?.pid).toBe(process.pid);
  });

  it('release leaves a lock that another process has taken since', async () => {
    const path = lockPath();
    const release = acquire(path);
    const other = await liveProcess();
    const text = `${JSON.stringify({ pid: other.pid, startTime: other.startTime, command: 'yoke run' })}\n`;
    writeFileSync(path, text);

    release();

    expect(readFileSync(path, 'utf8')).toBe(text);
  });
});
