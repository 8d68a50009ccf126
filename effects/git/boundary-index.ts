// yoke's own git index holding exactly a baseline tree, kept between boundary scans (issue #7).
//
// The boundary scan asks "what differs from the baseline tree?". An index file whose entries are
// that tree answers it in one `git status` (index vs working directory, plus untracked files), and
// git keeps the index's stat data fresh, so unchanged files are not re-hashed on the next scan.
// The file lives in the repository's (per-worktree) git directory, never in the user's index.
//
// Trust: the file is written only by yoke's own git processes. Before using it, the runner's
// process compares its inode, size and mtime with what it saw after its own last use; any other
// state (another process, a restart, an edit by someone else) means it is rebuilt from the tree
// object, so a changed cache can never hide a change from the scan.
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { runGit } from './run-git.js';

/** Where a project's git files live (asked once per project). */
interface GitPaths {
  /** the project's real index */
  index: string;
  /** yoke's folder inside the git directory */
  cache: string;
}

const gitPaths = new Map<string, Promise<GitPaths>>();
/** cache file → `ino:size:mtimeNs` seen right after this process last wrote or used it */
const lastSeen = new Map<string, string>();

/** The real index and yoke's cache folder of the repository at `root`. */
export function projectGitPaths(root: string): Promise<GitPaths> {
  let known = gitPaths.get(root);
  if (!known) {
    known = runGit(root, ['rev-parse', '--git-path', 'index', '--git-path', 'yoke']).then((out) => {
      const [index = '', cache = ''] = out.split('\n').map((line) => resolve(root, line.trim()));
      return { index, cache };
    });
    known.catch(() => gitPaths.delete(root));
    gitPaths.set(root, known);
  }
  return known;
}

/**
 * A fresh temporary index path in yoke's cache folder (same file system as the cache, for rename).
 * `keepBoundaryIndex` removes other `boundary-*` files; a `prefix` of its own keeps a temporary
 * index out of that sweep (a check working while a run does).
 */
export async function temporaryIndex(root: string, prefix = 'boundary'): Promise<string> {
  const { cache } = await projectGitPaths(root);
  await mkdir(cache, { recursive: true });
  return join(cache, `${prefix}-${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
}

/** Copy the real index to `path` (nothing to copy in a fresh repository) so its stat data is reused. */
export async function copyRealIndex(root: string, path: string): Promise<void> {
  const { index } = await projectGitPaths(root);
  const copied = await copyFile(index, path).then(() => true, (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
    return false;
  });
  // "Racy git": git trusts an entry's stat data only when the entry is older than the index file.
  // A copy is newer than the index it copies, so a same-size edit made in the second the real index
  // was written would pass for unchanged (a stale snapshot); the copy keeps the real index's times.
  if (copied) {
    const real = await stat(index);
    await utimes(path, real.atime, real.mtime);
  }
}

/** Make `temporary` (an index holding exactly `tree`) the cache for `tree`; other cached trees are dropped. */
export async function keepBoundaryIndex(root: string, tree: string, temporary: string): Promise<void> {
  const { cache } = await projectGitPaths(root);
  const path = join(cache, `boundary-${tree}.index`);
  await rename(temporary, path);
  await noteBoundaryIndex(path);
  for (const name of await readdir(cache)) {
    if (name !== `boundary-${tree}.index` && name.startsWith('boundary-')) await rm(join(cache, name), { force: true });
  }
}

/** The path of an index holding exactly `tree`: the cached one when this process knows it unchanged, else rebuilt. */
export async function boundaryIndex(root: string, tree: string): Promise<string> {
  const { cache } = await projectGitPaths(root);
  const path = join(cache, `boundary-${tree}.index`);
  const seen = lastSeen.get(path);
  if (seen !== undefined && seen === (await statKey(path))) return path;
  const temporary = await temporaryIndex(root);
  try {
    await copyRealIndex(root, temporary);
    const env = { GIT_INDEX_FILE: temporary };
    // One-tree merge: the entries become exactly `tree`, keeping the real index's stat data where
    // the content matches. It refuses an index with conflicts; then read the tree afresh.
    await runGit(root, ['read-tree', '-m', tree], { env }).catch(async () => {
      await rm(temporary, { force: true });
      await runGit(root, ['read-tree', tree], { env });
    });
    await keepBoundaryIndex(root, tree, temporary);
  } finally {
    await rm(temporary, { force: true });
  }
  return path;
}

/** Remember the cache file's identity after this process used it (git may have refreshed it). */
export async function noteBoundaryIndex(path: string): Promise<void> {
  const key = await statKey(path);
  if (key === null) lastSeen.delete(path);
  else lastSeen.set(path, key);
}

async function statKey(path: string): Promise<string | null> {
  const stats = await stat(path, { bigint: true }).catch(() => null);
  return stats === null ? null : `${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
}
