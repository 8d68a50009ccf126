// `yoke retrofit --undo`, decided purely: every path the last retrofit touched goes back to what it
// was, unless the user changed it since (then nothing is undone, except a filled-in context template,
// which is kept).
import { contentHash } from './content-hash.js';
import type { BackupRecord, TouchedPath } from './retrofit-backup.js';

/** One restore step. */
export type UndoStep =
  | { path: string; action: 'restore'; hash: string; mode: number }
  | { path: string; action: 'delete' }
  | { path: string; action: 'keep'; reason: string };

/** The steps, or the paths that changed since the retrofit (then nothing may be undone). */
export type UndoPlan = { steps: UndoStep[]; conflicts: [] } | { steps: []; conflicts: Array<{ path: string; reason: string }> };

function afterState(current: Uint8Array | null): string {
  return current === null ? 'absent' : contentHash(current);
}

function step(touched: TouchedPath): UndoStep {
  return touched.before === 'absent' ? { path: touched.path, action: 'delete' } : { path: touched.path, action: 'restore', hash: touched.before.hash, mode: touched.before.mode };
}

/** Plan the undo of `record` for the project's current bytes of each touched path (null = absent). */
export function planUndo(record: BackupRecord, current: ReadonlyMap<string, Uint8Array | null>): UndoPlan {
  const steps: UndoStep[] = [];
  const conflicts: Array<{ path: string; reason: string }> = [];
  for (const touched of record.touched) {
    const now = afterState(current.get(touched.path) ?? null);
    if (now === touched.after) steps.push(step(touched));
    else if (touched.seed === true) steps.push({ path: touched.path, action: 'keep', reason: 'you filled it in since the retrofit: kept' });
    else conflicts.push({ path: touched.path, reason: now === 'absent' ? 'was deleted since the retrofit' : 'was changed since the retrofit' });
  }
  return conflicts.length > 0 ? { steps: [], conflicts } : { steps, conflicts: [] };
}
