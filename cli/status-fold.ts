// The slow path of `yoke status`: read and verify the journal (from the saved fold checkpoint on when
// there is one the journal vouches for), fold the latest run, and save the result as the status
// view so the next `yoke status` takes the fast path.
import { foldFrom } from '../store/fold/fold-checkpoint.js';
import { findRun, foldRun } from '../store/fold/journal-runs.js';
import { runRulings, runUsage } from '../store/projections/checkpoint-ledger.js';
import { summarizeRun } from '../store/projections/run-summary.js';
import { sameHead } from '../store/journal/journal-head.js';
import { statusViewPath, viewKey, writeStatusView, type StatusView } from '../store/projections/status-view.js';
import { readWorkspace, readWorkspaceFrom } from '../store/session/read-workspace.js';
import type { WorkspacePaths } from '../store/session/workspace-paths.js';
import { currentPhase } from './phase-text.js';

/** The latest run's view from a fold (null when there is no run); a corrupt journal throws (exit 3). */
export async function foldStatusView(paths: WorkspacePaths): Promise<{ view: StatusView | null; tornTail: boolean }> {
  const read = readWorkspaceFrom(paths, false) ?? (await readWorkspace(paths));
  const { records, head, torn, store } = read;
  if (records.every((record) => record.type !== 'run.started')) return { view: null, tornTail: torn !== null };
  const started = findRun(records);
  // Read from a checkpoint, the records before it are only those its ledger kept: its run is folded
  // on from it, and its sums start from its tallies (a later run is all after it).
  const base = read.from !== null && read.from.checkpoint.started.seq === started.seq ? read.from.checkpoint : null;
  const summary = summarizeRun(base === null ? foldRun(records, started) : foldFrom(base, records), records);
  const usage = runUsage(records, summary.run, base);
  const phase = summary.status === 'unfinished' ? currentPhase(records, summary.run, base) : null;
  // Saved only for the journal as stored now: a torn tail stays until `yoke run` repairs it (until
  // then every status folds, and says so), and a run appending meanwhile makes the view stale.
  const stored = await store.head();
  const rulings = runRulings(records, summary.run, base);
  const view: StatusView = { v: 2, summary, usage, rulings, phase, journal: viewKey(stored) };
  if (torn !== null || stored.torn || !sameHead(stored, head)) return { view, tornTail: torn !== null };
  try {
    writeStatusView(statusViewPath(paths.journalDir), view);
  } catch {
    // a cache: a read-only workspace just stays on the slow path
  }
  return { view, tornTail: false };
}
