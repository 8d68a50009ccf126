// The git steps of a parallel stories lane: its identity fallback, commits with trailers, and small queries.
import { gitExitCode, runGit, spawnGit, type GitOutcome } from '../git/run-git.js';

/** GIT_AUTHOR_* / GIT_COMMITTER_* for whichever identity git cannot find on its own (a run never fails for lack of `user.name`). */
export async function laneIdentity(root: string): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  for (const role of ['AUTHOR', 'COMMITTER']) {
    if ((await gitExitCode(root, ['var', `GIT_${role}_IDENT`])) === 0) continue;
    env[`GIT_${role}_NAME`] = 'yoke';
    env[`GIT_${role}_EMAIL`] = 'yoke@localhost';
  }
  return env;
}

/** `git <args>` with the identity fallback; never throws. */
export async function laneGit(root: string, args: string[]): Promise<GitOutcome> {
  return spawnGit(root, args, { env: await laneIdentity(root) });
}

/** The commit `rev` names, in full. */
export async function revParse(root: string, rev: string): Promise<string> {
  return (await runGit(root, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`])).trim();
}

/** The tree of commit `rev`. */
export async function treeOf(root: string, rev: string): Promise<string> {
  return (await runGit(root, ['rev-parse', `${rev}^{tree}`])).trim();
}

/** Does `ancestor` lie on `rev`'s history (or equal it)? */
export async function contains(root: string, rev: string, ancestor: string): Promise<boolean> {
  return (await gitExitCode(root, ['merge-base', '--is-ancestor', ancestor, rev])) === 0;
}

/** A file's content at `rev`, or null when it is not there. */
export async function showFile(root: string, rev: string, path: string): Promise<string | null> {
  const shown = await spawnGit(root, ['show', `${rev}:${path}`]);
  return shown.exitCode === 0 ? shown.stdout : null;
}

/** The last `max` characters of a git process's output, for a rejection's `output`. */
export function outputTail(outcome: GitOutcome, max = 2000): string {
  const text = `${outcome.stdout}${outcome.stderr}`.trimEnd();
  return text.length <= max ? text : `…${text.slice(text.length - max)}`;
}
