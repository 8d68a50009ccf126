// The slow path of `yoke status`: read and verify the whole journal, fold the latest run, and save
// the result as the status view so the next `yoke status` takes the fast path.
import { readJournalFile } from '../store/journal/file/journal-file.js';
import { findRun, foldRun } from '../store/fold/journal-runs.js';
import { summarizeRun } from '../store/projections/run-summary.js';
import { journalTail, statusViewPath, writeStatusView, type StatusView } from '../store/projections/status-view.js';
import { readLedger, totalUsage } from '../store/projections/usage-ledger.js';
import type { WorkspacePaths } from '../store/session/workspace-paths.js';
import { currentPhase } from './phase-text.js';

/** The latest run's view from a full fold (null when there is no run); a corrupt journal throws (exit 3). */
export function foldStatusView(paths: WorkspacePaths): { view: StatusView | null; tornTail: boolean } {
  const contents = readJournalFile(paths.journal);
  const { records, torn } = contents;
  if (records.every((record) => record.type !== 'run.started')) return { view: null, tornTail: torn !== null };
  const started = findRun(records);
  const summary = summarizeRun(foldRun(records, started), records);
  const usage = totalUsage(readLedger(records).filter((entry) => entry.run === summary.run));
  const phase = summary.status === 'unfinished' ? currentPhase(records, summary.run) : null;
  const tail = torn ? null : journalTail(paths.journal, records.length, contents.lastHash);
  if (tail === null) {
    return { view: { v: 1, summary, usage, phase, journal: { ino: 0, bytes: -1, mtimeMs: 0, seq: records.length, lastLineBytes: 0, lastHash: contents.lastHash } }, tornTail: torn !== null };
  }
  const view: StatusView = { v: 1, summary, usage, phase, journal: tail };
  try {
    writeStatusView(statusViewPath(paths.journalDir), view);
  } catch {
    // a cache: a read-only workspace just stays on the slow path
  }
  return { view, tornTail: false };
}
