// Materializing a manifest: build it in a scratch folder inside `.loop/.stash/`, then rename each
// name into `.loop/` (a rename is atomic, and the scratch folder is on the same file system).
import { chmodSync, lstatSync, mkdirSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { topName, type StashEntry } from './stash-entry.js';
import { topNames } from './stash-entry-safety.js';
import { copyVerified, objectPath } from './stash-objects.js';

/**
 * Create `entries` (already checked by `manifestProblem`) under `staging`. File content comes from
 * the objects, or when an object is not there yet, from `fallbackRoot/<path>` (clean keeps spec
 * files that are still in `.loop/`); either way every byte is checked against the recorded hash.
 * Folders get their recorded permissions once filled, except names directly in `staging`: those are
 * set by `placeStaged` after the rename (moving a read-only folder is not allowed).
 */
export function stageEntries(stashDir: string, staging: string, entries: readonly StashEntry[], fallbackRoot: string | null, step: () => void): void {
  mkdirSync(staging, { recursive: true });
  for (const entry of entries) {
    const abs = join(staging, entry.path);
    switch (entry.type) {
      case 'dir':
        mkdirSync(abs, 0o700);
        break;
      case 'file': {
        const object = objectPath(stashDir, entry.blob);
        const source = fallbackRoot !== null && !lstatSync(object, { throwIfNoEntry: false }) ? join(fallbackRoot, entry.path) : object;
        copyVerified(source, abs, entry.blob, entry.mode);
        break;
      }
      case 'symlink':
        symlinkSync(entry.target, abs);
        break;
    }
    step();
  }
  for (let i = entries.length - 1; i >= 0; i -= 1) {
    const entry = entries[i];
    if (entry?.type === 'dir' && entry.path.includes('/')) chmodSync(join(staging, entry.path), entry.mode);
  }
}

export interface PlaceOptions {
  /** recovering an interrupted operation: names may already be in place */
  recovering: boolean;
  /** names that may replace what is there (`.gitignore` on a mode switch) */
  replaceable: readonly string[];
  /** re-stage one top-level name whose staged copy is gone (recovery only) */
  restage: (name: string) => void;
  step: () => void;
}

/**
 * Rename every top-level name of `entries` from `staging` into `loopDir`. A name already present
 * is never overwritten: in normal operation that is a bug (thrown), when recovering it means the
 * rename happened before the crash, or someone created the name since (kept, and reported).
 */
export function placeStaged(loopDir: string, staging: string, entries: readonly StashEntry[], options: PlaceOptions): string[] {
  const conflicts: string[] = [];
  for (const name of topNames(entries)) {
    const target = join(loopDir, name);
    const staged = join(staging, name);
    const replaceable = options.replaceable.includes(name);
    const present = !replaceable && lstatSync(target, { throwIfNoEntry: false }) !== undefined;
    const isStaged = lstatSync(staged, { throwIfNoEntry: false }) !== undefined;
    if (present) {
      if (!options.recovering) throw new Error(`.loop/${name} appeared while yoke was restoring; nothing was overwritten`);
      if (isStaged) conflicts.push(name);
      continue;
    }
    if (!isStaged) {
      if (!options.recovering) throw new Error(`the staged copy of .loop/${name} is missing`);
      options.restage(name);
    }
    renameSync(staged, target);
    const top = entries.find((entry) => entry.path === name);
    if (top?.type === 'dir') chmodSync(target, top.mode);
    options.step();
  }
  return conflicts;
}

/** The entries under one top-level name. */
export function entriesUnder(entries: readonly StashEntry[], name: string): StashEntry[] {
  return entries.filter((entry) => topName(entry.path) === name);
}
