// Planning a path whose whole content is yoke's (file) or was yoke's once (seed).
import type { LockEntry } from './canon-lock.js';
import { contentHash } from './content-hash.js';
import { diffSummary } from './line-diff.js';
import type { RetrofitArtifact } from './retrofit-artifact.js';
import type { ArtifactPlan, ProjectFiles } from './retrofit-plan.js';
import { planYokeNew, planYokeNewCleanup } from './yoke-new.js';

/** A file yoke owns whole: create it, keep it, update it while unedited, or leave the user's edit and write `.yoke-new`. */
export function planWholeFile(artifact: Extract<RetrofitArtifact, { kind: 'file' }>, project: ProjectFiles, previous: LockEntry | undefined): ArtifactPlan {
  const { path, content } = artifact;
  const source = contentHash(content);
  const owned: LockEntry = { owner: 'file', source, written: source };
  if (project.notText.has(path)) return { entries: [{ path, action: 'refused', reason: 'is not UTF-8 text; yoke leaves it untouched', summary: '' }], lock: previous ?? null };
  const existing = project.files.get(path) ?? null;
  const cleanup = planYokeNewCleanup(project, path, previous);
  if (existing === null) {
    const reason = previous === undefined ? artifact.reason : `${artifact.reason}; missing since the last retrofit, written again`;
    return { entries: [{ path, action: 'create', reason, summary: diffSummary(null, content), content }, ...cleanup], lock: owned };
  }
  if (existing === content) return { entries: [{ path, action: 'unchanged', reason: artifact.reason, summary: '' }, ...cleanup], lock: owned };
  if (previous?.written != null && previous.written === contentHash(existing)) {
    return { entries: [{ path, action: 'update', reason: `${artifact.reason}; the canon changed`, summary: diffSummary(existing, content), content }, ...cleanup], lock: owned };
  }
  const yokeNew = planYokeNew(project, path, content);
  const reason = previous === undefined ? 'exists and is not yoke\'s: kept as it is' : 'you edited it since the last retrofit: kept as it is';
  return {
    entries: [{ path, action: 'drifted', reason, summary: diffSummary(existing, content) }, yokeNew.entry],
    lock: { owner: 'file', source, written: previous?.written ?? null, pending: yokeNew.pending },
  };
}

/** A context template: written when missing and never before; after that the file is the user's. */
export function planSeed(artifact: Extract<RetrofitArtifact, { kind: 'seed' }>, project: ProjectFiles, previous: LockEntry | undefined): ArtifactPlan {
  const { path, content } = artifact;
  const existing = project.files.get(path) ?? null;
  if (existing !== null || project.notText.has(path)) return { entries: [{ path, action: 'unchanged', reason: 'exists: yours, never overwritten', summary: '' }], lock: previous ?? null };
  if (previous !== undefined) return { entries: [{ path, action: 'unchanged', reason: 'you removed it: yoke does not write it again', summary: '' }], lock: previous };
  const source = contentHash(content);
  return { entries: [{ path, action: 'create', reason: artifact.reason, summary: diffSummary(null, content), content, seed: true }], lock: { owner: 'seed', source, written: source } };
}
