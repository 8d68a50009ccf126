// The project's tracked files, for the tool-call gate (DESIGN §13): deleting or emptying a path that
// holds none of them is a write like any other, not destructive.
import { spawnGit } from './run-git.js';

/** `git ls-files` in `root` (project-relative paths), or null when git cannot tell (no repository). */
export async function trackedFiles(root: string): Promise<string[] | null> {
  const out = await spawnGit(root, ['ls-files', '-z', '--full-name']);
  if (out.exitCode !== 0) return null;
  return out.stdout.split('\0').filter((path) => path !== '');
}
