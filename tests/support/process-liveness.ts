// Is a process still there, and polling until a condition holds.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** True while `pid` is a live process; a zombie (exited, not yet reaped) counts as gone. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Poll `check` every `intervalMs` until it returns true or `timeoutMs` passes; returns the last answer. */
export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, intervalMs = 50): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(intervalMs);
  }
}

/** A process as it was when a test noted it: its pid and its start time (null when it was already gone). */
export interface ProcessMark {
  pid: number;
  start: string | null;
}

/** The start time of `pid` in clock ticks since boot (field 22 of /proc/<pid>/stat), or null when there is none. */
function startTimeOf(pid: number): string | null {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** Note processes a test may leave behind, so they can be killed later without hitting a reused pid. */
export function markProcesses(...pids: number[]): ProcessMark[] {
  return pids.map((pid) => ({ pid, start: startTimeOf(pid) }));
}

/** True while the noted process is still the one running under its pid. */
export function stillRunning(mark: ProcessMark): boolean {
  return mark.start !== null && startTimeOf(mark.pid) === mark.start;
}

/**
 * Best-effort SIGKILL of leftover processes after a test (never throws). A pid that now names another
 * process (the suite starts thousands and pids wrap at pid_max) is left alone: killing it would
 * kill some other test's agent.
 */
export function killQuietly(marks: ProcessMark[]): void {
  for (const mark of marks) {
    if (!stillRunning(mark)) continue;
    try {
      process.kill(mark.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
