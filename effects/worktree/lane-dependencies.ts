// A lane's worktree is outside the project (docs/parallel.md#where-lanes-work), so nothing there
// resolves up into the main tree's installed dependencies: each git-ignored dependency folder of
// the main tree is linked into the lane instead, where git never sees the link.
import { lstat, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { gitExitCode } from '../git/run-git.js';
import { addSharedExcludes } from '../git/shared-exclude.js';
import { changeWorktreeRegistry } from './worktree-admin.js';

import { DEPENDENCY_FOLDERS } from '../../config/lane-worktree-path.js';

async function present(path: string): Promise<boolean> {
  return lstat(path).then(() => true, () => false);
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then((info) => info.isDirectory(), () => false);
}

/** Does git in `root` ignore `name` (as a file or a link: no `name/` rule matches it)? */
async function ignoredIn(root: string, name: string): Promise<boolean> {
  return (await gitExitCode(root, ['check-ignore', '-q', '--', name]).catch(() => 128)) === 0;
}

/**
 * Link `<lane>/<name>` → `<main>/<name>` for each of DEPENDENCY_FOLDERS that is a directory at the
 * main tree's root, git-ignored there, and absent in the lane (a tracked folder is checked out in the
 * lane, so it is never replaced). Before linking, the lane must ignore the link too: a `.gitignore`
 * rule `node_modules/` matches only a directory, not a link, so `/<name>` goes into the repository's
 * shared `info/exclude` (once); the boundary scans, `git status` and the candidate's `git add -A`
 * never see it. A folder that cannot be linked or hidden is left out with a warning: the lane works on
 * without it. Links are removed with the worktree; git removes a link, never what it points to.
 */
export async function linkLaneDependencies(main: string, lane: string, warn: (message: string) => void): Promise<void> {
  const wanted: string[] = [];
  for (const name of DEPENDENCY_FOLDERS) {
    if (await present(join(lane, name))) continue;
    if (!(await isDirectory(join(main, name)))) continue;
    if (await ignoredIn(main, name)) wanted.push(name);
  }
  if (wanted.length === 0) return;
  const hide: string[] = [];
  for (const name of wanted) if (!(await ignoredIn(lane, name))) hide.push(`/${name}`);
  if (hide.length > 0) {
    // the exclude file is the repository's, shared by the lanes being made at once: they take turns
    await changeWorktreeRegistry(main, () => addSharedExcludes(main, hide)).catch((error: unknown) => {
      warn(`could not add ${hide.join(', ')} to the repository's info/exclude (${error instanceof Error ? error.message : String(error)})`);
    });
  }
  for (const name of wanted) {
    const link = join(lane, name);
    if (!(await ignoredIn(lane, name))) {
      warn(`did not link ${main}/${name} into ${lane}: git would see the link there; install the dependencies in the lane's guards or checks instead`);
      continue;
    }
    await symlink(join(main, name), link, 'dir').catch((error: unknown) => {
      warn(`could not link ${main}/${name} into ${lane} (${error instanceof Error ? error.message : String(error)}); the lane works without it`);
    });
  }
}
