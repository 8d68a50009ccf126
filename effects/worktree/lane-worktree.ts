// Making a parallel stories lane's git worktree (DESIGN §10): added from scratch, or an existing one
// reset, and its `.loop/.journal` and the main tree's dependency folders linked into it.
import { lstat, mkdir, realpath, stat, symlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { journalDirOf } from '../../config/workspace-layout.js';
import { runGit, spawnGit } from '../git/run-git.js';
import { linkLaneDependencies } from './lane-dependencies.js';
import { laneGit } from './lane-git.js';
import { changeWorktreeRegistry } from './worktree-admin.js';

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

/**
 * Is there a git worktree of the repository at `mainRoot` at `path`? Its `.git` file must lead to that
 * repository: a lane's folder outlives its project (it is under the state home), so one left by a
 * clone deleted since, at the same path, is not taken for the new clone's.
 */
export async function isWorktree(path: string, mainRoot: string): Promise<boolean> {
  if (!(await exists(join(path, '.git')))) return false;
  const [lane, main] = await Promise.all([commonDir(path), commonDir(mainRoot)]);
  return lane !== null && lane === main;
}

/** The real path of the git directory shared by the worktrees of the repository at `dir`, or null. */
async function commonDir(dir: string): Promise<string | null> {
  const found = await spawnGit(dir, ['rev-parse', '--git-common-dir']);
  if (found.exitCode !== 0) return null;
  return realpath(resolve(dir, found.stdout.trim())).catch(() => null);
}

/**
 * `git worktree add -f -B <branch> <path> <commit>`, after pruning the registration a worktree
 * directory deleted by hand leaves behind; registry changes take turns with the other lanes'.
 */
export async function addWorktree(mainRoot: string, path: string, branch: string, commit: string, story: string): Promise<void> {
  await changeWorktreeRegistry(mainRoot, async () => {
    await runGit(mainRoot, ['worktree', 'prune']);
    await mkdir(dirname(path), { recursive: true });
    const added = await laneGit(mainRoot, ['worktree', 'add', '-q', '-f', '-B', branch, path, commit]);
    if (added.exitCode !== 0) throw new Error(`git worktree add failed for ${story}: ${added.stderr.trim()}`);
  });
}

/** Check `branch` out at `commit` in the worktree at `path`, dropping its changes and untracked files (`.loop/.journal` aside). */
export async function resetWorktree(path: string, branch: string, commit: string, story: string): Promise<void> {
  const checkout = await laneGit(path, ['checkout', '-q', '-f', '-B', branch, commit]);
  if (checkout.exitCode !== 0) throw new Error(`could not reset the worktree of ${story}: ${checkout.stderr.trim()}`);
  await runGit(path, ['clean', '-q', '-fd', '-e', '.loop/.journal']);
}

/**
 * What every lane worktree gets once it is there (made, reset or reused): its `.loop/.journal` linked
 * to the main one, and the main tree's git-ignored dependency folders linked in (lane-dependencies.ts).
 */
export async function furnishLane(main: { root: string; loopDir: string }, path: string, warn: (message: string) => void): Promise<void> {
  await linkLaneJournal(main.loopDir, path);
  await linkLaneDependencies(main.root, path, warn);
}

/** The lane's `.loop/.journal` links to the main one: transcripts, usage files and blobs stay in the one journal folder. */
async function linkLaneJournal(mainLoopDir: string, path: string): Promise<void> {
  await mkdir(join(path, '.loop'), { recursive: true });
  const journal = journalDirOf(join(path, '.loop'));
  // lstat: a link whose target is missing is still the link (linking again would fail)
  if (!(await lstat(journal).then(() => true, () => false))) await symlink(journalDirOf(mainLoopDir), journal);
}
