// Settling a stash operation a crash interrupted: every stash command does this first, holding the lock.
import type { StashOp } from './stash-entry.js';
import { finishOperation, type FinishReport, type StashContext } from './stash-operation.js';
import type { StashIndex } from './stash-index.js';
import { collectStashGarbage, removeTree, workDir } from './stash-work.js';

/** What settling did, for the CLI to tell the user. */
export interface SettleReport extends FinishReport {
  op: StashOp;
  /** finished: rolled forward to the operation's end; rolled-back: it had changed nothing yet */
  outcome: 'finished' | 'rolled-back';
  /** the entry its push recorded, if any */
  pushed: string | null;
  /** the entry it restored, if any */
  restored: string | null;
}

/**
 * Finish or undo the open operation of `index` (if any), then remove scratch folders and temp
 * objects no operation owns. An operation whose push never became durable changed nothing in
 * `.loop/` (files move only after the push is journaled), so it is rolled back; any other is rolled
 * forward: its intent and manifests are durable, and every file is in `.loop/`, staged, or an object.
 */
export async function settleStash(ctx: StashContext, index: StashIndex): Promise<SettleReport | null> {
  const open = index.open;
  let report: SettleReport | null = null;
  if (open) {
    const base = { op: open.begun.op, pushed: open.pushed?.id ?? null, restored: open.begun.restore };
    if (open.begun.push !== null && !open.pushed) {
      removeTree(workDir(ctx.stashDir, open.begun.work));
      await ctx.journal.append({ run: null, machine: null, mv: null, type: 'stash.ended', payload: { op: open.begun.op, outcome: 'rolled-back' } });
      report = { ...base, outcome: 'rolled-back', pushed: null, restored: null, kept: [], missing: [], conflicts: [] };
    } else {
      report = { ...base, outcome: 'finished', ...(await finishOperation(ctx, index, open, { recovering: true, hardLinked: new Set() })) };
    }
  }
  collectStashGarbage(ctx.stashDir, null);
  return report;
}
