// Planning yoke's items in a JSON settings file (.claude/settings.json, .gemini/settings.json):
// merged key by key with type checks; nothing of the user's is removed or reformatted.
import type { LockEntry } from './canon-lock.js';
import { contentHash } from './content-hash.js';
import { canonicalJson, findParts, partsInPlace, placeParts } from './json-parts.js';
import { diffSummary } from './line-diff.js';
import type { RetrofitArtifact } from './retrofit-artifact.js';
import type { ArtifactPlan, ProjectFiles } from './retrofit-plan.js';
import { planYokeNew, planYokeNewCleanup } from './yoke-new.js';

type JsonArtifact = Extract<RetrofitArtifact, { kind: 'json' }>;

/** The hash of what a file holds of the parts (what yoke owns there). */
function ownedHash(found: unknown): string {
  return contentHash(canonicalJson(found));
}

/** Create the file, add or update yoke's items while unedited, or keep the user's edit of them and write `.yoke-new`. */
export function planJsonFile(artifact: JsonArtifact, project: ProjectFiles, previous: LockEntry | undefined): ArtifactPlan {
  const { path, parts, dialect } = artifact;
  const source = contentHash(canonicalJson(parts));
  if (project.notText.has(path)) return { entries: [{ path, action: 'refused', reason: 'is not UTF-8 text; yoke leaves it untouched', summary: '' }], lock: previous ?? null };
  const existing = project.files.get(path) ?? null;
  const cleanup = planYokeNewCleanup(project, path, previous);
  const ownedAfter = (text: string): string => {
    const after = findParts(text, dialect, parts);
    return ownedHash(after.found);
  };
  if (existing === null) {
    const content = placeParts(null, parts, dialect);
    return { entries: [{ path, action: 'create', reason: artifact.reason, summary: diffSummary(null, content), content }, ...cleanup], lock: { owner: 'keys', source, written: ownedAfter(content), file: contentHash(content) } };
  }
  const current = findParts(existing, dialect, parts);
  if (current.problem !== null) {
    const { line, column, reason } = current.problem;
    return { entries: [{ path, action: 'refused', reason: `line ${line}:${column}: ${reason}; yoke left it untouched, fix it and run yoke retrofit again`, summary: '' }], lock: previous ?? null };
  }
  const file = previous?.file;
  if (partsInPlace(parts, current.found)) {
    return { entries: [{ path, action: 'unchanged', reason: artifact.reason, summary: '' }, ...cleanup], lock: { owner: 'keys', source, written: ownedHash(current.found), ...(file !== undefined ? { file } : {}) } };
  }
  const next = placeParts(existing, parts, dialect);
  const check = findParts(next, dialect, parts);
  if (check.problem !== null || !partsInPlace(parts, check.found)) {
    return { entries: [{ path, action: 'refused', reason: 'yoke could not merge its entries cleanly; yoke left it untouched, merge them by hand', summary: '' }], lock: previous ?? null };
  }
  const untouched = current.found.every((value) => value === null || value === false);
  if (previous === undefined || untouched || previous.written === ownedHash(current.found)) {
    const reason = previous === undefined ? `${artifact.reason}; merged into your settings` : untouched ? `${artifact.reason}; yoke's entries were removed, added again` : `${artifact.reason}; the canon changed`;
    const stillOnlyOurs = file !== undefined && file === contentHash(existing);
    return { entries: [{ path, action: 'update', reason, summary: diffSummary(existing, next), content: next }, ...cleanup], lock: { owner: 'keys', source, written: ownedAfter(next), ...(stillOnlyOurs ? { file: contentHash(next) } : {}) } };
  }
  const yokeNew = planYokeNew(project, path, next);
  return {
    entries: [{ path, action: 'drifted', reason: 'you edited yoke\'s entries since the last retrofit: kept as they are', summary: diffSummary(existing, next) }, yokeNew.entry],
    lock: { owner: 'keys', source, written: previous.written, pending: yokeNew.pending, ...(file !== undefined ? { file } : {}) },
  };
}
