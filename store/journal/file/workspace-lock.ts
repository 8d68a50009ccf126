// One writer per workspace: a lock file holding the owner's pid and process start time.
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { isSameProcess, processStartTime } from '../../../effects/process/process-identity.js';
import { YokeError } from '../../../errors/yoke-error.js';

/** What the lock file says. */
export interface LockOwner {
  pid: number;
  startTime: string | null;
  command: string;
}

/** Read the lock file; null when there is none or it names no process (garbled). */
export function readLock(path: string): LockOwner | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error; // a lock yoke may not read is not one it may take over
  }
  let value: Partial<LockOwner> | null;
  try {
    value = JSON.parse(text) as Partial<LockOwner> | null;
  } catch {
    return null; // not JSON: yoke writes its lock whole (temp file + link), so no yoke holds this one
  }
  if (typeof value?.pid !== 'number') return null;
  return { pid: value.pid, startTime: typeof value.startTime === 'string' ? value.startTime : null, command: String(value.command ?? '') };
}

/** Is the recorded owner still the same live process (pid + start time, never by name)? */
export function lockIsLive(owner: LockOwner): boolean {
  if (owner.pid === process.pid) return true;
  return isSameProcess(owner.pid, owner.startTime);
}

/**
 * Take the workspace lock for this process. A live owner refuses the workspace (exit 3); a lock
 * left by a dead process is taken over, and `onStale` hears about it.
 *
 * The lock file appears atomically with its content (written to a temp file, then `link`ed into
 * place, which fails if a lock exists), so nobody ever reads a half-written lock. A stale lock is
 * first renamed aside and checked to be the one judged stale; if a live yoke replaced it
 * meanwhile, it is put back and the workspace refused.
 */
export function acquireLock(path: string, command: string, onStale: (owner: LockOwner) => void): () => void {
  mkdirSync(dirname(path), { recursive: true });
  const mine: LockOwner = { pid: process.pid, startTime: processStartTime(process.pid), command };
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeAndSync(openSync(temporary, 'w'), `${JSON.stringify(mine)}\n`);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      if (tryLink(temporary, path)) return () => releaseLock(path);
      const owner = readLock(path);
      if (owner && lockIsLive(owner)) throw lockHeldError(path, owner);
      const aside = `${path}.stale.${process.pid}`;
      try {
        renameSync(path, aside);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // someone else moved it: try again
        throw error;
      }
      const moved = readLock(aside);
      if (moved && lockIsLive(moved)) {
        // A live yoke took the lock between our read and our rename: give it back.
        if (!tryLink(aside, path)) throw lockHeldError(path, moved);
        unlinkSync(aside);
        throw lockHeldError(path, moved);
      }
      unlinkSync(aside);
      if (owner) onStale(owner);
    }
    throw new YokeError('workspace', `${path}: could not take the workspace lock (other yoke processes keep racing for it); try again.`);
  } finally {
    removeTemporary(temporary);
  }
}

/** Remove this process's temp lock file; one that cannot be removed (a read-only disk) is harmless, and the error that matters is already on its way. */
function removeTemporary(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // ENOENT (it was never written) or the disk refusing: never masks why the lock was not taken
  }
}

function tryLink(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** The refusal when a live `owner` holds the lock at `path`. */
export function lockHeldError(path: string, owner: LockOwner): YokeError {
  return new YokeError('workspace', `${path}: another yoke (${owner.command || 'pid'} ${owner.pid}) is working in this workspace; wait for it to finish or stop it first.`);
}

/** Remove the lock if it is still ours. */
function releaseLock(path: string): void {
  const owner = readLock(path);
  if (owner && owner.pid === process.pid) unlinkSync(path);
}

function writeAndSync(fd: number, text: string): void {
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
