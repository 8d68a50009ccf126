// The status view: the latest run's summary, saved next to the journal with the journal head it was
// computed at, so `yoke status` can answer without reading and folding the whole journal.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sameHead } from '../journal/journal-head.js';
import type { StoredHead } from '../journal/journal-store.js';
import type { RunSummary } from './run-summary.js';
import type { ToolRulingCounts } from './tool-ruling-counts.js';
import type { UsageTotals } from './usage-ledger.js';
import { JOURNAL_LAYOUT } from '../../config/workspace-layout.js';

/** The journal a view was computed from: its head and the store's stamp of it. */
export type ViewKey = Pick<StoredHead, 'seq' | 'hash' | 'stamp'>;

/** What `yoke status` shows about the latest run, as of the journal head `journal`. */
export interface StatusView {
  /** 2: keyed on the store's head (1 was keyed on the file and its last line, and is ignored) */
  v: 2;
  /** a summary without `unit` or `progress` (saved by an older yoke) is refolded */
  summary: RunSummary;
  usage: UsageTotals;
  /** the run's tool calls ruled by the gate (a view without it, saved by an older yoke, is refolded) */
  rulings: ToolRulingCounts;
  /** what the run was doing at that point (`worker agent`, `guard tests`, …), null between steps */
  phase: string | null;
  journal: ViewKey;
}

/** Where the view lives in a workspace. */
export function statusViewPath(journalDir: string): string {
  return join(journalDir, JOURNAL_LAYOUT.status);
}

/** Replace the view atomically (temp file + rename; no fsync: a lost view only costs a full fold). */
export function writeStatusView(path: string, view: StatusView): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(view)}\n`);
  renameSync(temporary, path);
}

/** The key of a view computed from the journal whose stored head is `head`. */
export function viewKey(head: StoredHead): ViewKey {
  return { seq: head.seq, hash: head.hash, stamp: head.stamp };
}

/**
 * The view at `viewPath`, if it still describes the journal whose stored head is `head`: the same
 * seq, chain hash (of the last record) and store stamp (which changes with any change to the stored
 * journal), and no torn tail after it. Anything else (no view, a garbled or older one, a journal
 * appended to or edited since) → null, and the caller folds the journal instead.
 *
 * This is a cheap check, not a verification of the chain: `yoke run` and `yoke replay --verify`
 * read every record. An edit the stamp cannot show (a backend without one, a file edited keeping
 * its size and modification time) is not seen here, only there.
 */
export function readTrustedStatusView(viewPath: string, head: StoredHead): StatusView | null {
  let view: StatusView;
  try {
    view = JSON.parse(readFileSync(viewPath, 'utf8')) as StatusView;
  } catch {
    return null; // missing or garbled: a cache miss, the journal is folded instead
  }
  if (view?.v !== 2 || typeof view.summary !== 'object' || typeof view.rulings !== 'object' || typeof view.journal !== 'object' || view.journal === null) return null;
  // a summary saved by an older yoke lacks the unit and the item progress: refolded
  if (typeof view.summary.unit !== 'string' || !('progress' in view.summary)) return null;
  return !head.torn && sameHead(view.journal, head) && view.journal.stamp === head.stamp ? view : null;
}
