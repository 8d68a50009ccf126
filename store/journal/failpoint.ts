// Crash injection for tests and drills: YOKE_FAILPOINT makes yoke kill itself (SIGKILL) at an
// exact journal position, so crash recovery is tested deterministically, not by racing a timer.
//
//   YOKE_FAILPOINT=crash-after:<seq>   SIGKILL right after the record with that seq is durable
//   YOKE_FAILPOINT=torn-at:<seq>       write half of that record's line, fsync, then SIGKILL
//   YOKE_FAILPOINT=stash-clear:<n>     SIGKILL after the n-th file a stash moved out of .loop/
//   YOKE_FAILPOINT=stash-stage:<n>     SIGKILL after the n-th entry a restore staged in .loop/.stash/work/
//   YOKE_FAILPOINT=stash-place:<n>     SIGKILL after the n-th name a restore renamed into .loop/

/** A parsed failpoint, or null when none is set. */
export interface Failpoint {
  kind: 'crash-after' | 'torn-at' | StashStep;
  /** the journal seq, or for a stash step the step's 1-based count */
  seq: number;
}

/** The file-system phases of a stash command that a failpoint can interrupt. */
export type StashStep = 'stash-clear' | 'stash-stage' | 'stash-place';

/** Read YOKE_FAILPOINT once; a malformed value is ignored with a warning (never a silent crash). */
export function readFailpoint(env: NodeJS.ProcessEnv, warn: (message: string) => void): Failpoint | null {
  const value = env.YOKE_FAILPOINT;
  if (!value) return null;
  const match = /^(crash-after|torn-at|stash-clear|stash-stage|stash-place):([1-9][0-9]*)$/.exec(value);
  if (!match) {
    warn(`ignoring YOKE_FAILPOINT=${value}: expected crash-after:<seq>, torn-at:<seq> or stash-clear|stash-stage|stash-place:<n>.`);
    return null;
  }
  return { kind: match[1] as Failpoint['kind'], seq: Number(match[2]) };
}

/** Die at once, as kill -9 would. */
export function die(): never {
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable: SIGKILL did not stop the process');
}

/**
 * A counter for one stash phase: `step()` after each unit of work; it dies at the configured count
 * when YOKE_FAILPOINT names this phase, and does nothing otherwise.
 */
export function stashStepper(failpoint: Failpoint | null, phase: StashStep): () => void {
  if (failpoint?.kind !== phase) return () => undefined;
  let count = 0;
  return () => {
    count += 1;
    if (count === failpoint.seq) die();
  };
}
