// Runs a worker cannot resume on a fresh clone, whatever it tries: said once, with the reason, instead of ten attempts.
import { LIFECYCLES } from '../../machines/lifecycles/registry.js';
import type { RunPosition } from './journal-position.js';
import type { MissingBackup } from './ship-blobs.js';

/**
 * Why the workspace's unfinished run cannot go on in a fresh clone, or null when it can.
 *
 * Only committed work moves between machines (a worker clones afresh on every attempt). A run
 * commits as it goes under `commit each`, and in a lifecycle whose units are stories (each story
 * is committed as it passes, `commit done` alike); otherwise (`commit done` or `off`) it commits
 * nothing until it ends, so once it completed an agent call its work exists only in the checkout
 * that ran it: resuming it on the job's ref would carry on from the journal's iteration with that
 * work gone. (A run that commits as it goes loses at most the uncommitted part of the iteration or
 * story attempt that was cut short or failed its gates, which the next one does again.)
 */
export function uncommittedWorkRefusal(position: RunPosition, workspace: string): string | null {
  const { open, lastCommit, agentCalls, commitSetting, mode } = position;
  if (open === null || lastCommit !== null || agentCalls === 0 || commitSetting === null || commitsAsItGoes(commitSetting, mode)) return null;
  return `run ${open} completed ${agentCalls} agent call(s) under \`commit ${commitSetting}\` and has no commit yet: its work is only in the checkout of the worker that ran it, and a worker resumes from a fresh clone, so it cannot go on; `
    + `put \`commit each\` in the repository's .loop/yoke.conf, abandon the run (\`yoke run --fresh\` in a clone, with YOKE_STORE and YOKE_WORKSPACE=${workspace} set, starts a new one) and queue the workspace again (docs/fleet.md)`;
}

function commitsAsItGoes(setting: string, mode: string | null): boolean {
  if (setting === 'each') return true;
  const features: readonly string[] = (mode === null ? undefined : LIFECYCLES[mode])?.features ?? [];
  return setting !== 'off' && features.includes('stories');
}

/**
 * Why a parallel stories run cannot go on in a fresh clone, or null: its lanes' worktrees, their
 * uncommitted work and their candidate commits live on the worker that ran them (the worktrees
 * under its state home, the commits in its clone), and are not pushed (only what landed on the run's branch is on refs/yoke/runs/<run>).
 */
export function openLanesRefusal(position: RunPosition, workspace: string): string | null {
  if (position.open === null || position.openLanes.length === 0) return null;
  return `run ${position.open} is a parallel stories run with lanes in progress (${position.openLanes.join(', ')}): their worktrees and branches exist only in the clone of the worker that ran them, and a worker resumes from a fresh clone, so it cannot go on; `
    + `the stories that landed are on refs/yoke/runs/${position.open} (merge it to keep them), then abandon the run (\`yoke run --fresh\` in a clone, with YOKE_STORE and YOKE_WORKSPACE=${workspace} set, starts a new one) and queue the workspace again (docs/fleet.md)`;
}

/** The refusal for spec backups neither the store nor git holds: the run's next spec restore would fail. */
export function missingBackupRefusal(position: RunPosition, missing: readonly MissingBackup[], workspace: string): string {
  const named = missing.map((backup) => `.loop/${backup.file} (blob ${backup.hash.slice(0, 12)})`).join(', ');
  return `run ${position.open ?? '?'} cannot resume here: its backup of ${named} is neither in the store nor in any commit of the run (the machine that ran it was lost before it shipped its blobs); `
    + `abandon the run (\`yoke run --fresh\` in a clone, with YOKE_STORE and YOKE_WORKSPACE=${workspace} set, starts a new one) and queue the workspace again`;
}
