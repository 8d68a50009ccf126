// Crash injection for tests and drills: YOKE_FAILPOINT makes yoke kill itself (SIGKILL) at an
// exact journal position, so crash recovery is tested deterministically, not by racing a timer.
//
//   YOKE_FAILPOINT=crash-after:<seq>   SIGKILL right after the record with that seq is durable
//   YOKE_FAILPOINT=torn-at:<seq>       write half of that record's line, fsync, then SIGKILL

/** A parsed failpoint, or null when none is set. */
export interface Failpoint {
  kind: 'crash-after' | 'torn-at';
  seq: number;
}

/** Read YOKE_FAILPOINT once; a malformed value is ignored with a warning (never a silent crash). */
export function readFailpoint(env: NodeJS.ProcessEnv, warn: (message: string) => void): Failpoint | null {
  const value = env.YOKE_FAILPOINT;
  if (!value) return null;
  const match = /^(crash-after|torn-at):([1-9][0-9]*)$/.exec(value);
  if (!match) {
    warn(`ignoring YOKE_FAILPOINT=${value}: expected crash-after:<seq> or torn-at:<seq>.`);
    return null;
  }
  return { kind: match[1] as Failpoint['kind'], seq: Number(match[2]) };
}

/** Die at once, as kill -9 would. */
export function die(): never {
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable: SIGKILL did not stop the process');
}
