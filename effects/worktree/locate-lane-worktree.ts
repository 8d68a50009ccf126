// Finding a lane's worktree at execution time (DESIGN §10): decided from the project root and the
// environment yoke runs in, never read from the journal (a fleet run moves between machines).
import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { spawnGit } from '../git/run-git.js';
import { laneWorktreeDir, legacyLaneWorktreePath, projectWorktreesPath, stateHome } from '../../config/lane-worktree-path.js';

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(() => true, () => false);
}

/** The real path of `root`, or of its parent joined with its name when it does not exist (yet, or any more). */
async function realRoot(root: string): Promise<string> {
  return realpath(root).catch(async () => join(await realpath(dirname(root)).catch(() => dirname(root)), basename(root)));
}

/** The folder holding the lane worktrees of the project at `projectRoot`: `<state home>/yoke/worktrees/<project>-<hash>`. */
export async function projectWorktreesDir(projectRoot: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return projectWorktreesPath(stateHome(env), await realRoot(projectRoot));
}

/**
 * Where `story`'s lane works: `<state home>/yoke/worktrees/<project>-<hash>/<story>`, unless a
 * worktree of the story is still at the old place, `.git/yoke/worktrees/<story>` (its directory
 * there, or git still lists it there after it was deleted by hand): a run journaled before goes on
 * in it, so nothing it holds is lost, and it is made again there.
 */
export async function laneWorktreePath(projectRoot: string, story: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const legacy = legacyLaneWorktreePath(projectRoot, story);
  if (await exists(dirname(legacy))) {
    if (await exists(legacy)) return legacy;
    const listed = await spawnGit(projectRoot, ['worktree', 'list', '--porcelain']);
    if (listed.exitCode === 0 && listed.stdout.split('\n').includes(`worktree ${legacy}`)) return legacy;
  }
  return laneWorktreeDir(stateHome(env), await realRoot(projectRoot), story);
}
