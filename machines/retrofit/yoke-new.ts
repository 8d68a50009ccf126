// `<path>.yoke-new`: yoke's version of a generated file the user has edited, written next to it.
import { contentHash } from './content-hash.js';
import type { LockEntry } from './canon-lock.js';
import { diffSummary } from './line-diff.js';
import type { PlanEntry, ProjectFiles } from './retrofit-plan.js';

/** The companion path. */
export function yokeNewPath(path: string): string {
  return `${path}.yoke-new`;
}

function current(project: ProjectFiles, path: string): string | null {
  return project.files.get(path) ?? null;
}

/** The entry that writes (or keeps) yoke's version next to `path`, and its hash for the lock. */
export function planYokeNew(project: ProjectFiles, path: string, desired: string): { entry: PlanEntry; pending: string } {
  const target = yokeNewPath(path);
  const existing = current(project, target);
  const pending = contentHash(desired);
  if (existing === desired) return { entry: { path: target, action: 'unchanged', reason: `yoke's version of ${path}, waiting for you`, summary: '' }, pending };
  return {
    entry: { path: target, action: existing === null ? 'create' : 'update', reason: `yoke's version of ${path}, which you edited`, summary: diffSummary(existing, desired), content: desired },
    pending,
  };
}

/** When the user settled a drift: delete the `.yoke-new` yoke wrote, if it is still as written. */
export function planYokeNewCleanup(project: ProjectFiles, path: string, previous: LockEntry | undefined): PlanEntry[] {
  if (previous?.pending === undefined) return [];
  const target = yokeNewPath(path);
  const existing = current(project, target);
  if (existing === null || contentHash(existing) !== previous.pending) return [];
  return [{ path: target, action: 'delete', reason: `${path} no longer differs from yoke's version`, summary: diffSummary(existing, null) }];
}
