// One writer per workspace: a lock file holding the owner's pid and process start time.
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { isSameProcess, processStartTime } from '../effects/process-identity.js';
import { YokeError } from './yoke-error.js';

/** What the lock file says. */
export interface LockOwner {
  pid: number;
  startTime: string | null;
  command: string;
}

/** Read the lock file; null when there is none or it is unreadable. */
export function readLock(path: string): LockOwner | null {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
    if (typeof value.pid !== 'number') return null;
    return { pid: value.pid, startTime: typeof value.startTime === 'string' ? value.startTime : null, command: String(value.command ?? '') };
  } catch {
    return null;
  }
}

/** Is the recorded owner still the same live process (pid + start time, never by name)? */
export function lockIsLive(owner: LockOwner): boolean {
  if (owner.pid === process.pid) return true;
  return isSameProcess(owner.pid, owner.startTime);
}

/**
 * Take the workspace lock for this process. A live owner refuses the workspace (exit 3); a lock
 * left by a dead process is taken over, and `onStale` hears about it.
 */
export function acquireLock(path: string, command: string, onStale: (owner: LockOwner) => void): () => void {
  mkdirSync(dirname(path), { recursive: true });
  const mine: LockOwner = { pid: process.pid, startTime: processStartTime(process.pid), command };
  const text = `${JSON.stringify(mine)}\n`;
  try {
    const fd = openSync(path, 'wx');
    writeAndSync(fd, text);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const owner = readLock(path);
    if (owner && lockIsLive(owner)) {
      throw new YokeError('workspace', `${path}: another yoke (${owner.command || 'pid'} ${owner.pid}) is working in this workspace; wait for it to finish or stop it first.`);
    }
    if (owner) onStale(owner);
    const temporary = `${path}.${process.pid}.tmp`;
    writeAndSync(openSync(temporary, 'w'), text);
    renameSync(temporary, path);
    const now = readLock(path);
    if (!now || now.pid !== process.pid) {
      throw new YokeError('workspace', `${path}: another yoke took this workspace at the same moment; try again.`);
    }
  }
  return () => {
    const owner = readLock(path);
    if (owner && owner.pid === process.pid) unlinkSync(path);
  };
}

function writeAndSync(fd: number, text: string): void {
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
