// Signalling a whole process group and waiting until none of its members is left alive.
import { readdirSync } from 'node:fs';
import { procStatFields } from './proc-stat.js';

/** How long to wait for a group to vanish after SIGKILL before giving up. */
const AFTER_KILL_WAIT_MS = 2_000;
const POLL_MS = 20;

/** Send `signal` to every process in group `pgid`; false when the group no longer exists (ESRCH). */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/**
 * The live members of group `pgid`. Zombies are not counted: an orphaned zombie may never be reaped
 * in a container whose pid 1 does not reap, and it does no work. Without /proc, falls back to
 * whether the group can be signalled at all.
 */
export function liveGroupMembers(pgid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return signalGroup(pgid, 0) ? [pgid] : [];
  }
  const members: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = procStatFields(Number(entry));
    if (fields === null || fields[2] !== String(pgid)) continue;
    if (fields[0] === 'Z' || fields[0] === 'X') continue;
    members.push(Number(entry));
  }
  return members;
}

/** Resolve true once group `pgid` has no live member, or false after `timeoutMs`. */
export async function waitForGroupExit(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (liveGroupMembers(pgid).length === 0) return true;
    if (performance.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** SIGTERM the group, SIGKILL whatever is still alive after `graceMs`, then wait (bounded) until it is gone. */
export async function terminateGroup(pgid: number, graceMs: number): Promise<void> {
  if (liveGroupMembers(pgid).length === 0) return;
  signalGroup(pgid, 'SIGTERM');
  if (await waitForGroupExit(pgid, graceMs)) return;
  signalGroup(pgid, 'SIGKILL');
  await waitForGroupExit(pgid, AFTER_KILL_WAIT_MS);
}
