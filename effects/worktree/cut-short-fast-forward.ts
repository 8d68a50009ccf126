// A fast-forward of the target that a kill cut short (DESIGN §10): git had already checked the landing
// commit out in the main working tree, but had not moved the branch yet.
import { readFile, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { YokeError } from '../../errors/yoke-error.js';
import { readHead } from '../git/head-state.js';
import { gitExitCode, runGit, spawnGit } from '../git/run-git.js';
import { workingTreeChanges } from '../git/working-tree-changes.js';
import { revParse } from './lane-git.js';

/** What a `story.land` was doing: the story, the target branch and the commit it left the target at. */
export interface Landing {
  story: string;
  target: string;
  from: string;
}

/**
 * The commit that `story.land` was fast-forwarding the target to when a kill stopped it, or null.
 * `git merge --ff-only` updates the index and the working tree first, and moves the branch last. A
 * kill in between leaves a main working tree that looks dirty, but holds exactly the landing commit.
 * That commit is the lane's HEAD (`lane` is its worktree): it carries the story's and run's trailers
 * and has `from` as its parent. The main working tree must still be on `target` at `from`, and its
 * index and working tree must match the commit exactly, with no untracked file outside `.loop/`.
 * Anything else is not yoke's to finish.
 */
export async function cutShortFastForward(main: string, lane: string, landing: Landing, run: string): Promise<string | null> {
  const head = await readHead(main);
  if (head.branch !== landing.target || head.sha !== landing.from) return null;
  const sha = await revParse(lane, 'HEAD').catch(() => '');
  if (sha === '' || sha === landing.from) return null;
  const shown = await spawnGit(lane, ['show', '-s', '--format=%P%x00%B', sha]);
  const [parents = '', message = ''] = shown.stdout.split('\0');
  if (shown.exitCode !== 0 || parents.trim() !== landing.from) return null;
  if (!message.includes(`\nYoke-Story: ${landing.story}\n`) || !message.includes(`\nYoke-Run: ${run}\n`)) return null;
  if ((await gitExitCode(main, ['diff', '--quiet', '--cached', sha])) !== 0) return null;
  if ((await gitExitCode(main, ['diff', '--quiet', sha])) !== 0) return null;
  const untracked = (await spawnGit(main, ['ls-files', '--others', '--exclude-standard'])).stdout.split('\n').filter((path) => path !== '' && !path.startsWith('.loop/'));
  if (untracked.length > 0) return null;
  // Nothing is left to tell apart from the landing: every change `git status` shows is the commit's own.
  return (await workingTreeChanges(main)).length > 0 ? sha : null;
}

/**
 * Move the target to `sha`, as the cut-short `git merge --ff-only` would have done. A kill while git
 * held the branch's locks leaves `refs/heads/<target>.lock` (holding the new commit) and `HEAD.lock`
 * behind, and they block every later update of the branch. They are removed only when they hold
 * what this update writes anyway (`sha`, or nothing). A lock that holds anything else belongs to
 * some other git command, and it stops the run with what to do.
 */
export async function finishFastForward(main: string, landing: Landing, sha: string): Promise<void> {
  const locks: string[] = [];
  for (const [name, allowed] of [[`refs/heads/${landing.target}.lock`, [sha]], ['HEAD.lock', ['', sha, `ref: refs/heads/${landing.target}`]]] as const) {
    const path = resolve(main, (await runGit(main, ['rev-parse', '--git-path', name])).trim());
    const held = await readFile(path, 'utf8').then((text) => text.trim(), () => null);
    if (held === null) continue;
    if (!(allowed as readonly string[]).includes(held)) {
      throw new YokeError('workspace', `${path} is locked by another git command, so yoke cannot finish landing story ${landing.story} on ${landing.target}; once no git command is running, remove the lock file and run \`yoke run\` again.`);
    }
    locks.push(path);
  }
  for (const path of locks) await rm(path, { force: true });
  await runGit(main, ['update-ref', '-m', `yoke: finish landing ${landing.story}`, `refs/heads/${landing.target}`, sha, landing.from]);
}
