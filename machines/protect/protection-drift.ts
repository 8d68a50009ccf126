// What changed in the protected files since the baseline, and what putting them back takes.
import type { Protection, ProtectedFile } from './protection.js';

/** How one protected path differs from its baseline. */
export interface Drift {
  path: string;
  /** modified: other content; mode: same content, other type or permissions (`chmod -x`); deleted; added: a new file the patterns cover */
  kind: 'modified' | 'mode' | 'deleted' | 'added';
  /** the baseline's file (absent for `added`) */
  before?: ProtectedFile;
  /** the file now, its content kept as a blob (absent for `deleted`) */
  after?: ProtectedFile;
}

/** Every difference between the baseline's files and `now`, sorted by path. */
export function protectionDrift(baseline: readonly ProtectedFile[], now: readonly ProtectedFile[]): Drift[] {
  const before = new Map(baseline.map((file) => [file.path, file]));
  const after = new Map(now.map((file) => [file.path, file]));
  const drift: Drift[] = [];
  for (const [path, was] of before) {
    const is = after.get(path);
    if (is === undefined) drift.push({ path, kind: 'deleted', before: was });
    else if (is.sha256 !== was.sha256) drift.push({ path, kind: 'modified', before: was, after: is });
    else if (is.mode !== was.mode) drift.push({ path, kind: 'mode', before: was, after: is });
  }
  for (const [path, is] of after) if (!before.has(path)) drift.push({ path, kind: 'added', after: is });
  return drift.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** What the restore writes back (baseline files) and removes (files the baseline did not have). */
export interface RestorePlan {
  write: ProtectedFile[];
  remove: string[];
}

/** The restore that undoes `drift`: every changed or deleted file back from the baseline, every added one removed. */
export function restorePlan(drift: readonly Drift[]): RestorePlan {
  const write: ProtectedFile[] = [];
  const remove: string[] = [];
  for (const entry of drift) {
    if (entry.before) write.push(entry.before);
    else remove.push(entry.path);
  }
  return { write, remove };
}

/** One line per drifted path: `modified tests/a.test.js`, `mode 100755 → 100644 hooks/pre-commit`. */
export function driftLine(entry: Drift): string {
  if (entry.kind === 'mode' && entry.before && entry.after) return `mode ${entry.before.mode.toString(8)} → ${entry.after.mode.toString(8)} ${entry.path}`;
  return `${entry.kind} ${entry.path}`;
}

/** A one-line count of the drift: `2 modified, 1 deleted`. */
export function driftSummary(drift: readonly Drift[]): string {
  const counts = new Map<string, number>();
  for (const entry of drift) counts.set(entry.kind, (counts.get(entry.kind) ?? 0) + 1);
  return [...counts].map(([kind, count]) => `${count} ${kind}`).join(', ');
}

/** Are two baselines the same (same digest)? */
export function sameProtection(a: Pick<Protection, 'digest'> | null | undefined, b: Pick<Protection, 'digest'> | null | undefined): boolean {
  return (a?.digest ?? null) === (b?.digest ?? null);
}
