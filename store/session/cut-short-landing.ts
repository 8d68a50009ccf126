// Whether a parallel run's main working tree is dirty only because a kill cut a story's landing short (DESIGN §10).
import { cutShortFastForward } from '../../effects/worktree/cut-short-fast-forward.js';
import { laneWorktreePath } from '../../effects/worktree/locate-lane-worktree.js';
import { unfinishedRun } from '../fold/journal-runs.js';
import type { JournalRecord } from '../journal/record.js';

/**
 * The commit that the unfinished run's `story.land` (started, never completed) was fast-forwarding the
 * target to, when the main working tree already holds exactly that commit (see
 * {@link cutShortFastForward}); else null. Resuming such a run is not refused as dirty: the landing's
 * `reconcile` finishes the fast-forward.
 */
export async function cutShortLanding(records: readonly JournalRecord[], root: string): Promise<string | null> {
  const run = unfinishedRun(records);
  if (run === null) return null;
  for (const landing of openLandings(records, run).values()) {
    const sha = await cutShortFastForward(root, await laneWorktreePath(root, landing.lane), landing, run);
    if (sha !== null) return sha;
  }
  return null;
}

/** The `story.land` effects of `run` that started and neither completed nor failed, by effect key. */
export function openLandings(records: readonly JournalRecord[], run: string): Map<string, { story: string; target: string; from: string; lane: string }> {
  const open = new Map<string, { story: string; target: string; from: string; lane: string }>();
  for (const record of records) {
    if (record.run !== run) continue;
    if (record.type === 'effect.started' && record.payload.kind === 'story.land') open.set(record.payload.key, record.payload.params as { story: string; target: string; from: string; lane: string });
    else if (record.type === 'effect.completed' || record.type === 'effect.failed') open.delete(record.payload.key);
  }
  return open;
}
