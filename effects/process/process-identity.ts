// Who a pid really is (pid + kernel start time), and stopping a process group left behind by a crashed yoke.
import { procStatFields } from './proc-stat.js';
import { liveGroupMembers, terminateGroup } from './terminate-group.js';

/** The kernel start time of a process (clock ticks since boot, as text), or null if it is gone or unknown (non-Linux). */
export function processStartTime(pid: number): string | null {
  return procStatFields(pid)?.[19] ?? null;
}

/**
 * True when `pid` is a live (non-zombie) process that started at `startTime`: the same process we
 * recorded, not a later one that reused its pid. Never decided by name. Unknown identity → false.
 */
export function isSameProcess(pid: number, startTime: string | null): boolean {
  if (startTime === null) return false;
  const fields = procStatFields(pid);
  if (fields === null) return false;
  const state = fields[0];
  if (state === 'Z' || state === 'X') return false;
  return fields[19] === startTime;
}

/**
 * Stop the process group led by `pgid` (recorded as pid + start time): SIGTERM to the group, SIGKILL
 * after `graceMs`. Acts only when the leader is still the recorded process, or when the leader is gone
 * and its group still has members (the kernel never reuses a pid while it names a live group, so
 * such members are the recorded agent's). A leader pid now owned by another process is left alone.
 * Returns true when the group was signalled.
 */
export async function killProcessGroup(pgid: number, startTime: string | null, graceMs: number): Promise<boolean> {
  const leaderStart = processStartTime(pgid);
  const leaderIsOurs = leaderStart !== null && leaderStart === startTime;
  if (leaderStart !== null && !leaderIsOurs) return false;
  if (!leaderIsOurs && liveGroupMembers(pgid).length === 0) return false;
  await terminateGroup(pgid, graceMs);
  return true;
}
