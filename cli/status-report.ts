// Everything `yoke status` shows, loaded cheaply: the status view when it matches the journal's
// tail, else a full fold (loaded on demand), plus the lock and the heartbeat for liveness.
import { statSync } from 'node:fs';
import { isSameProcess } from '../effects/process/process-identity.js';
import { heartbeatPath, readHeartbeat } from '../store/liveness/heartbeat.js';
import { judgeLiveness, type Liveness } from '../store/liveness/run-liveness.js';
import { readTrustedStatusView, statusViewPath, type StatusView } from '../store/projections/status-view.js';
import { readLock } from '../store/journal/file/workspace-lock.js';
import type { WorkspacePaths } from '../store/session/workspace-paths.js';

/** The latest run with its liveness, or `run: null` when the journal has none. */
export type StatusReport =
  | { run: null; running: boolean }
  | { run: string; view: StatusView; liveness: Liveness; tornTail: boolean; fromView: boolean };

/**
 * Load the report. The fast path reads three small files and the journal's last line; only when the
 * view is missing or stale does it parse and fold the journal (which also refreshes the view).
 */
export async function loadStatusReport(paths: WorkspacePaths, now: number = Date.now()): Promise<StatusReport> {
  // no journal (or an empty one) means no runs: nothing to fold
  if ((statSync(paths.journal, { throwIfNoEntry: false })?.size ?? 0) === 0) return { run: null, running: lockHolderIsLive(paths) };
  const trusted = readTrustedStatusView(statusViewPath(paths.journalDir), paths.journal);
  let view: StatusView | null = trusted;
  let tornTail = false;
  if (!view) {
    const { foldStatusView } = await import('./status-fold.js');
    const folded = foldStatusView(paths);
    if (folded.view === null) return { run: null, running: lockHolderIsLive(paths) };
    view = folded.view;
    tornTail = folded.tornTail;
  }
  const liveness = judgeLiveness({
    summary: view.summary,
    lock: readLock(paths.lock),
    heartbeat: readHeartbeat(heartbeatPath(paths.journalDir)),
    now,
    isAlive: isSameProcess,
  });
  return { run: view.summary.run, view, liveness, tornTail, fromView: trusted !== null };
}

function lockHolderIsLive(paths: WorkspacePaths): boolean {
  const owner = readLock(paths.lock);
  return owner !== null && owner.pid !== process.pid && isSameProcess(owner.pid, owner.startTime);
}
