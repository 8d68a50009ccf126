// Scratch folders of stash operations (`.loop/.stash/work/<work>/`) and their removal.
import { randomBytes } from 'node:crypto';
import { chmodSync, lstatSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { objectsDir } from './stash-objects.js';

/** A new scratch name: 16 hex digits. */
export function newWorkName(): string {
  return randomBytes(8).toString('hex');
}

/** The scratch folder of an operation. */
export function workDir(stashDir: string, work: string): string {
  return join(stashDir, 'work', work);
}

/** Where an operation assembles what it will rename into `.loop/`. */
export function stagingDir(stashDir: string, work: string): string {
  return join(workDir(stashDir, work), 'in');
}

/** Remove a folder tree even where a restored folder is read-only (no error when it is absent). */
export function removeTree(path: string): void {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (!stats) return;
  if (stats.isDirectory()) {
    if ((stats.mode & 0o700) !== 0o700) chmodSync(path, 0o700);
    for (const name of readdirSync(path)) removeTree(join(path, name));
  }
  rmSync(path, { recursive: true, force: true });
}

/**
 * Remove scratch folders no operation owns (`keep` is the open operation's, if any) and temp files
 * an interrupted object write left: garbage from a crash before an operation's intent was journaled.
 */
export function collectStashGarbage(stashDir: string, keep: string | null): void {
  const work = join(stashDir, 'work');
  for (const name of listNames(work)) if (name !== keep) removeTree(join(work, name));
  const objects = objectsDir(stashDir);
  for (const name of listNames(objects)) if (name.startsWith('.tmp-')) rmSync(join(objects, name), { force: true });
}

function listNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
