// Everything `yoke status` shows, loaded cheaply: the status view when it matches the journal's
// head, else a full fold (loaded on demand), plus the lease and the heartbeat for liveness.
import { isSameProcess } from '../effects/process/process-identity.js';
import type { JournalStore } from '../store/journal/journal-store.js';
import { heartbeatPath, readHeartbeat } from '../store/liveness/heartbeat.js';
import { judgeLiveness, type Liveness } from '../store/liveness/run-liveness.js';
import { readTrustedStatusView, statusViewPath, type StatusView } from '../store/projections/status-view.js';
import { openJournalStore } from '../store/session/open-store.js';
import type { WorkspacePaths } from '../store/session/workspace-paths.js';

/** The latest run with its liveness, or `run: null` when the journal has none. */
export type StatusReport =
  | { run: null; running: boolean }
  | { run: string; view: StatusView; liveness: Liveness; tornTail: boolean; fromView: boolean };

/**
 * Load the report. The fast path reads three small files and the journal's head; only when the
 * view is missing or stale does it read and fold the journal (which also refreshes the view).
 */
export async function loadStatusReport(paths: WorkspacePaths, now: number = Date.now()): Promise<StatusReport> {
  const store = openJournalStore(paths);
  const head = await store.head();
  // an empty journal (or none) means no runs: nothing to fold
  if (head.seq === 0 && !head.torn) return { run: null, running: await holderIsLive(store) };
  const trusted = readTrustedStatusView(statusViewPath(paths.journalDir), head);
  let view: StatusView | null = trusted;
  let tornTail = false;
  if (!view) {
    const { foldStatusView } = await import('./status-fold.js');
    const folded = await foldStatusView(paths);
    if (folded.view === null) return { run: null, running: await holderIsLive(store) };
    view = folded.view;
    tornTail = folded.tornTail;
  }
  const lock = await store.lease.holder();
  // A lease that expires (a shared store, possibly held on another machine) is live while it beats.
  const leased = (pid: number, startTime: string | null): boolean => lock?.expiresAt !== undefined && lock.pid === pid && lock.startTime === startTime;
  const liveness = judgeLiveness({
    summary: view.summary,
    lock,
    heartbeat: readHeartbeat(heartbeatPath(paths.journalDir)),
    now,
    isAlive: (pid, startTime) => (lock !== null && leased(pid, startTime) ? store.lease.isLive(lock) : isSameProcess(pid, startTime)),
  });
  return { run: view.summary.run, view, liveness, tornTail, fromView: trusted !== null };
}

async function holderIsLive(store: JournalStore): Promise<boolean> {
  const holder = await store.lease.holder();
  return holder !== null && holder.pid !== process.pid && store.lease.isLive(holder);
}
