// A worker's checkout of a job's repository (DESIGN §14): cloned fresh, moved to the run's own ref when the run already began elsewhere, checked against the journal.
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { spawnGit, type GitOutcome } from '../../effects/git/run-git.js';
import { captureWorkTree } from '../../effects/git/git-tree.js';
import { projectWorktreesDir } from '../../effects/worktree/locate-lane-worktree.js';
import type { RunPosition } from './journal-position.js';
import { keepTranscripts } from './keep-transcripts.js';

/** The ref on the remote that holds a run's commits; the only ref a worker pushes. */
export function runRef(run: string): string {
  return `refs/yoke/runs/${run}`;
}

/** Why a job cannot go on in this checkout: `permanent` goes to the dead-letter queue, otherwise the job is tried again. */
export class CheckoutRefused extends Error {
  constructor(message: string, readonly permanent: boolean) {
    super(message);
  }
}

/**
 * After every commit (`git commit` runs it; yoke commits with --no-verify, which skips only the
 * pre-commit and commit-msg hooks) and every merge (a parallel run's `story.land` fast-forwards the
 * run's branch with `git merge --ff-only`), push HEAD to refs/yoke/runs/<run> of origin, <run> read
 * from the commit's own Yoke-Run trailer. Only in the main working tree (git runs a hook at the top
 * of the working tree, where only the main one has a `.git` folder): a parallel lane's commits, in
 * its worktree (a `.git` file), are not on the run's branch until they land. A plain
 * push: the ref only moves forward, and never a user's branch. Synchronous on purpose: the commit
 * effect is journaled only once its commit is on the ref, so a worker taking the run over never
 * finds the journal ahead of the ref (docs/fleet.md, "Cost").
 */
const PUSH_HOOK = `#!/bin/sh
# installed by yoke worker: push yoke's own commits to the run's ref on origin (DESIGN §14)
[ -d .git ] || exit 0
run=$(git log -1 --format='%(trailers:key=Yoke-Run,valueonly)' | head -n 1 | tr -d '[:space:]')
[ -n "$run" ] || exit 0
git push --quiet origin "HEAD:refs/yoke/runs/$run" >/dev/null 2>&1 || echo "yoke worker: could not push HEAD to refs/yoke/runs/$run" >&2
exit 0
`;

/** What the checkout is at, for the worker's log and `yoke fleet`. */
export interface PreparedCheckout {
  dir: string;
  branch: string;
  head: string;
  tree: string;
  /** the run's ref it was moved to (null: a new run, or one that had not committed yet) */
  fromRef: string | null;
}

/**
 * Clone `repository` into `dir` and make it match the journal. An earlier checkout there is
 * removed first, with its parallel lanes' worktrees, its transcripts, hook logs and usage files
 * moved to `keepInto` (keepTranscripts).
 * Then: a run that has commits continues from refs/yoke/runs/<run>, whose tip must be the last commit the journal
 * records (its tree the tree the run goes on from); a run without commits yet continues from the
 * job's ref, whose tree must be the run's baseline. A repository that cannot be cloned, or a
 * checkout that does not match, is permanent (the dead-letter queue, with the reason).
 */
export async function prepareCheckout(dir: string, job: { repository: string; ref: string | null }, position: RunPosition, keepInto: string): Promise<PreparedCheckout> {
  await keepTranscripts(dir, keepInto);
  // the lanes' worktrees of an earlier checkout live outside it (under the state home): they go with it
  await rm(await projectWorktreesDir(dir), { recursive: true, force: true });
  await rm(dir, { recursive: true, force: true });
  await mkdir(dirname(dir), { recursive: true });
  const clone = await spawnGit(dirname(dir), ['clone', '--quiet', ...(job.ref === null ? [] : ['--branch', job.ref]), '--', job.repository, dir], { env: { GIT_TERMINAL_PROMPT: '0' } });
  if (clone.exitCode !== 0) throw new CheckoutRefused(`the repository cannot be cloned: ${firstLine(clone)}`, true);
  const branch = (await git(dir, ['symbolic-ref', '--quiet', '--short', 'HEAD'])).stdout.trim() || (job.ref ?? 'HEAD');
  let fromRef: string | null = null;
  if (position.open !== null && position.lastCommit !== null) {
    const ref = runRef(position.open);
    const fetched = await git(dir, ['fetch', '--quiet', 'origin', `+${ref}:${ref}`]);
    if (fetched.exitCode !== 0) throw new CheckoutRefused(`run ${position.open} has commits in the journal, but ${ref} cannot be fetched from the remote: ${firstLine(fetched)}`, true);
    const moved = await git(dir, ['checkout', '--quiet', '-B', branch, ref]);
    if (moved.exitCode !== 0) throw new CheckoutRefused(`cannot check out ${ref}: ${firstLine(moved)}`, true);
    fromRef = ref;
  }
  const head = (await git(dir, ['rev-parse', 'HEAD'])).stdout.trim();
  const tree = (await git(dir, ['rev-parse', 'HEAD^{tree}'])).stdout.trim();
  if (position.open !== null && position.lastCommit !== null && head !== position.lastCommit) {
    throw new CheckoutRefused(`the workspace does not match the journal: run ${position.open}'s last commit is ${position.lastCommit}, but ${runRef(position.open)} is at ${head}`, true);
  }
  if (position.open !== null && position.lastCommit === null && position.baselineTree !== null) {
    const worktree = await captureWorkTree(dir, position.ignoredUnder);
    if (worktree !== position.baselineTree) {
      throw new CheckoutRefused(`the workspace does not match the journal: run ${position.open} began on tree ${position.baselineTree}, but ${job.ref ?? 'the default branch'} now has tree ${worktree}`, true);
    }
  }
  await installPushHooks(dir);
  return { dir, branch, head, tree, fromRef };
}

/**
 * The push hooks, in a folder of the clone's own that its local `core.hooksPath` names: a global
 * `core.hooksPath` (or one set for husky in the user's git configuration) would otherwise make git
 * skip `.git/hooks`, and with it every push after a commit.
 */
async function installPushHooks(dir: string): Promise<void> {
  const hooks = join(dir, '.git', 'yoke-worker-hooks');
  await mkdir(hooks, { recursive: true });
  for (const name of ['post-commit', 'post-merge']) {
    await writeFile(join(hooks, name), PUSH_HOOK);
    await chmod(join(hooks, name), 0o755);
  }
  const set = await git(dir, ['config', '--local', 'core.hooksPath', hooks]);
  if (set.exitCode !== 0) throw new Error(`cannot set core.hooksPath in the clone ${dir}: ${firstLine(set)}`);
}

/** Push HEAD to the run's ref (again: the hook did it after each commit); the outcome's message, or null when pushed. */
export async function pushRunRef(dir: string, run: string): Promise<string | null> {
  const pushed = await git(dir, ['push', '--quiet', 'origin', `HEAD:${runRef(run)}`]);
  return pushed.exitCode === 0 ? null : firstLine(pushed);
}

/** Does HEAD carry a Yoke-Run trailer of `run` (did the run commit in this checkout's history)? */
export async function headIsRunCommit(dir: string, run: string): Promise<boolean> {
  const trailer = await git(dir, ['log', '-1', '--format=%(trailers:key=Yoke-Run,valueonly)']);
  return trailer.stdout.trim() === run;
}

function git(dir: string, args: string[]): Promise<GitOutcome> {
  return spawnGit(dir, args, { env: { GIT_TERMINAL_PROMPT: '0' } });
}

function firstLine(outcome: GitOutcome): string {
  const text = (outcome.stderr.trim() || outcome.failure || `git exited with ${outcome.exitCode}`).split('\n').find((line) => line.trim() !== '') ?? '';
  return text.replace(/(https?:\/\/)[^/@\s]+@/g, '$1').trim();
}
