// Snapshotting the project outside `.loop/` as a git tree, without touching the user's index.
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runGit } from './run-git.js';

/**
 * The git tree id of the working directory outside `.loop/`: tracked and untracked non-ignored files
 * as they are on disk now. Works on a copy of the real index (so unchanged files are not re-hashed
 * and the user's staging area is never modified) and in a repository with no commits yet.
 */
export async function captureWorkTree(root: string): Promise<string> {
  const realIndex = resolve(root, (await runGit(root, ['rev-parse', '--git-path', 'index'])).trim());
  const dir = await mkdtemp(join(tmpdir(), 'yoke-index-'));
  const env = { GIT_INDEX_FILE: join(dir, 'index') };
  try {
    await copyFile(realIndex, env.GIT_INDEX_FILE).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error; // a fresh repository has no index yet
    });
    await runGit(root, ['-c', 'advice.addEmbeddedRepo=false', 'add', '-A', '--', '.', ':(exclude).loop'], { env });
    // The real index may track files under .loop/ (yoke commits notes.md and friends): drop them too.
    await runGit(root, ['rm', '--cached', '-r', '-f', '-q', '--ignore-unmatch', '--', '.loop'], { env });
    return (await runGit(root, ['write-tree'], { env })).trim();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Project paths outside `.loop/` (relative, posix, sorted, unique) that differ between `tree` and the
 * working directory now. Renames count as a deletion plus an addition. Uses the plumbing `diff-tree`
 * so that user diff settings (external diff, colors, prefixes) cannot change the output.
 */
export async function changedSince(root: string, tree: string): Promise<string[]> {
  const now = await captureWorkTree(root);
  if (now === tree) return [];
  const out = await runGit(root, ['diff-tree', '-r', '--no-renames', '--name-only', '-z', tree, now]);
  const paths = out.split('\0').filter((path) => path !== '');
  return [...new Set(paths)].sort();
}
