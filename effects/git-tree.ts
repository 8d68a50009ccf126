// Snapshotting the project outside `.loop/` as a git tree, without touching the user's index.
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runGit } from './run-git.js';

/**
 * A git tree id of the working directory: tracked and untracked non-ignored files as they are on
 * disk now, except that `.loop/` is not re-scanned (its entries are whatever the real index has;
 * compare trees with `changedSince`, which leaves `.loop/` out). Works on a copy of the real index (so unchanged files are not re-hashed
 * and the user's staging area is never modified) and in a repository with no commits yet.
 */
export async function captureWorkTree(root: string): Promise<string> {
  const realIndex = await indexPath(root);
  const dir = await mkdtemp(join(tmpdir(), 'yoke-index-'));
  const env = { GIT_INDEX_FILE: join(dir, 'index') };
  try {
    await copyFile(realIndex, env.GIT_INDEX_FILE).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error; // a fresh repository has no index yet
    });
    // Entries under .loop/ copied from the real index (yoke commits notes.md and friends) stay in
    // the tree as they were; `changedSince` leaves .loop/ out of the comparison.
    await runGit(root, ['-c', 'advice.addEmbeddedRepo=false', 'add', '-A', '--', '.', ':(exclude).loop'], { env });
    return (await runGit(root, ['write-tree'], { env })).trim();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const indexPaths = new Map<string, Promise<string>>();

/** Absolute path of the project's real index file (asked once per project). */
function indexPath(root: string): Promise<string> {
  let known = indexPaths.get(root);
  if (!known) {
    known = runGit(root, ['rev-parse', '--git-path', 'index']).then((out) => resolve(root, out.trim()));
    indexPaths.set(root, known);
  }
  return known;
}

/**
 * Project paths outside `.loop/` (relative, posix, sorted, unique) that differ between `tree` and the
 * working directory now. Renames count as a deletion plus an addition. Uses the plumbing `diff-tree`
 * so that user diff settings (external diff, colors, prefixes) cannot change the output.
 */
export async function changedSince(root: string, tree: string): Promise<string[]> {
  const now = await captureWorkTree(root);
  if (now === tree) return [];
  const out = await runGit(root, ['diff-tree', '-r', '--no-renames', '--name-only', '-z', tree, now, '--', '.', ':(exclude).loop']);
  const paths = out.split('\0').filter((path) => path !== '');
  return [...new Set(paths)].sort();
}
