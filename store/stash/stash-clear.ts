// Emptying `.loop/` after a push is journaled: each file becomes an object (a rename), then the
// folders and links left behind are removed.
import { chmodSync, lstatSync, mkdirSync, readlinkSync, rmdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { StashEntry } from './stash-entry.js';
import { hasObject, hashFile, moveIntoObjects, objectsDir } from './stash-objects.js';

export interface ClearOptions {
  /** paths of files with other hard links (copied, not renamed) */
  hardLinked: ReadonlySet<string>;
  /**
   * Recovering an interrupted clear: check each remaining entry against the manifest first, and
   * leave (and report) anything that differs, because it changed after the crash.
   */
  verify: boolean;
  /** called after each file is moved (failpoint) */
  step: () => void;
}

export interface ClearResult {
  /** paths left in `.loop/` because they no longer match the stash (only when verifying) */
  kept: string[];
  /** files of the entry that are neither in `.loop/` nor in the objects (deleted after a crash) */
  missing: string[];
}

/** Move the files of `entries` out of `.loop/` into the objects and remove the rest of the tree. */
export function clearEntries(loopDir: string, stashDir: string, entries: readonly StashEntry[], options: ClearOptions): ClearResult {
  mkdirSync(objectsDir(stashDir), { recursive: true });
  const result: ClearResult = { kept: [], missing: [] };
  // Folders must be writable for their entries to leave (they are removed right after).
  for (const entry of entries) {
    if (entry.type !== 'dir' || (entry.mode & 0o700) === 0o700) continue;
    const stats = lstatSync(join(loopDir, entry.path), { throwIfNoEntry: false });
    if (stats?.isDirectory()) chmodSync(join(loopDir, entry.path), 0o700);
  }
  for (const entry of entries) {
    const abs = join(loopDir, entry.path);
    if (entry.type === 'file') {
      if (options.verify) {
        const stats = lstatSync(abs, { throwIfNoEntry: false });
        if (!stats) {
          if (!hasObject(stashDir, entry.blob, entry.size)) result.missing.push(entry.path);
          continue;
        }
        if (!stats.isFile() || hashFile(abs).hash !== entry.blob) {
          result.kept.push(entry.path);
          continue;
        }
        moveIntoObjects(stashDir, abs, entry.blob, stats.nlink > 1);
      } else {
        moveIntoObjects(stashDir, abs, entry.blob, options.hardLinked.has(entry.path));
      }
      options.step();
    } else if (entry.type === 'symlink') {
      if (options.verify && !linkIs(abs, entry.target)) {
        if (lstatSync(abs, { throwIfNoEntry: false })) result.kept.push(entry.path);
        continue;
      }
      unlinkSync(abs);
    }
  }
  // Folders last, deepest first; one that still holds something that changed stays.
  for (let i = entries.length - 1; i >= 0; i -= 1) {
    const entry = entries[i];
    if (entry?.type !== 'dir') continue;
    try {
      rmdirSync(join(loopDir, entry.path));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (!options.verify || (code !== 'ENOENT' && code !== 'ENOTEMPTY' && code !== 'ENOTDIR')) throw error;
    }
  }
  return result;
}

function linkIs(path: string, target: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink() && readlinkSync(path) === target;
  } catch {
    return false;
  }
}
