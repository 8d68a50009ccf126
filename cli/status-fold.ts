// The slow path of `yoke status`: read and verify the whole journal, fold the latest run, and save
// the result as the status view so the next `yoke status` takes the fast path.
import { findRun, foldRun } from '../store/fold/journal-runs.js';
import { summarizeRun } from '../store/projections/run-summary.js';
import { sameHead } from '../store/journal/journal-head.js';
import { statusViewPath, viewKey, writeStatusView, type StatusView } from '../store/projections/status-view.js';
import { countToolRulings } from '../store/projections/tool-ruling-counts.js';
import { readLedger, totalUsage } from '../store/projections/usage-ledger.js';
import { readWorkspace } from '../store/session/read-workspace.js';
import type { WorkspacePaths } from '../store/session/workspace-paths.js';
import { currentPhase } from './phase-text.js';

/** The latest run's view from a full fold (null when there is no run); a corrupt journal throws (exit 3). */
export async function foldStatusView(paths: WorkspacePaths): Promise<{ view: StatusView | null; tornTail: boolean }> {
  const { records, head, torn, store } = await readWorkspace(paths);
  if (records.every((record) => record.type !== 'run.started')) return { view: null, tornTail: torn !== null };
  const started = findRun(records);
  const summary = summarizeRun(foldRun(records, started), records);
  const usage = totalUsage(readLedger(records).filter((entry) => entry.run === summary.run));
  const phase = summary.status === 'unfinished' ? currentPhase(records, summary.run) : null;
  // Saved only for the journal as stored now: a torn tail stays until `yoke run` repairs it (until
  // then every status folds, and says so), and a run appending meanwhile makes the view stale.
  const stored = await store.head();
  const rulings = countToolRulings(records, (run) => run === summary.run);
  const view: StatusView = { v: 2, summary, usage, rulings, phase, journal: viewKey(stored) };
  if (torn !== null || stored.torn || !sameHead(stored, head)) return { view, tornTail: torn !== null };
  try {
    writeStatusView(statusViewPath(paths.journalDir), view);
  } catch {
    // a cache: a read-only workspace just stays on the slow path
  }
  return { view, tornTail: false };
}
