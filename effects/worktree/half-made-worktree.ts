// A lane worktree that a kill left half made inside `git worktree add` (DESIGN §10).
import { readdir, readFile, realpath, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { gitExitCode, runGit } from '../git/run-git.js';

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

/**
 * Remove the worktree at `path` and its registration when `git worktree add` was killed before it
 * finished; true when it did. git registers a new worktree first (`.git/worktrees/<id>/` with
 * `gitdir` naming `<path>/.git`, and `locked` reading "initializing"), then writes `<path>/.git`,
 * `commondir` and `HEAD`, then checks the files out, and removes `locked` last. Some of that can be
 * missing, or HEAD can be unreadable (`failed to read …/commondir`), or the lock can still say
 * "initializing". Any of these means the add never completed, so no lane has worked in the worktree
 * yet. Removing it loses nothing: the add starts over from the journaled base. A directory that no
 * registration names is left alone.
 */
export async function discardHalfMadeWorktree(main: string, path: string): Promise<boolean> {
  if (!(await exists(path))) return false;
  const common = resolve(main, (await runGit(main, ['rev-parse', '--git-common-dir'])).trim());
  const gitFile = join(await realpath(path), '.git');
  const registered: string[] = [];
  for (const name of await readdir(join(common, 'worktrees')).catch(() => [] as string[])) {
    const gitdir = await readFile(join(common, 'worktrees', name, 'gitdir'), 'utf8').then((text) => text.trim(), () => null);
    if (gitdir === gitFile) registered.push(join(common, 'worktrees', name));
  }
  if (registered.length === 0) return leftBeforeRegistered(path, common);
  const initializing = await Promise.all(registered.map((dir) => readFile(join(dir, 'locked'), 'utf8').then((text) => text.trim() === 'initializing', () => false)));
  const usable = (await exists(gitFile)) && (await gitExitCode(path, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])) === 0;
  if (usable && !initializing.includes(true)) return false;
  for (const dir of registered) await rm(dir, { recursive: true, force: true });
  await rm(path, { recursive: true, force: true });
  return true;
}

/**
 * git makes the worktree's folder (and may write its `.git` file) before the registration names it:
 * a kill in between leaves a folder that holds nothing else. Such a folder is removed (true); one with
 * anything else in it, or whose `.git` points at another repository, is left alone.
 */
async function leftBeforeRegistered(path: string, common: string): Promise<boolean> {
  const entries = await readdir(path).catch(() => null);
  if (entries === null || entries.some((entry) => entry !== '.git')) return false;
  if (entries.includes('.git')) {
    const pointer = await readFile(join(path, '.git'), 'utf8').catch(() => null);
    const target = pointer === null ? null : /^gitdir: (.*)$/m.exec(pointer)?.[1]?.trim() ?? null;
    const worktrees = join(await realpath(common), 'worktrees');
    if (target === null || !resolve(path, target).startsWith(`${worktrees}/`)) return false;
  }
  await rm(path, { recursive: true, force: true });
  return true;
}
