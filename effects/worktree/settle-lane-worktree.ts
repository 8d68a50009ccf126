// A retained lane worktree on resume (DESIGN §10): reused when it still holds what the journal
// records, else made again from the journal, its own commits kept under a ref first.
import { stat } from 'node:fs/promises';
import type { LaneExpectation } from '../../machines/parallel/lane-expectation.js';
import { YokeError } from '../../errors/yoke-error.js';
import { runGit, spawnGit } from '../git/run-git.js';
import { discardHalfMadeWorktree } from './half-made-worktree.js';
import { contains, revParse } from './lane-git.js';
import { addWorktree, furnishLane, isWorktree, resetWorktree } from './lane-worktree.js';
import { laneWorktreePath } from './locate-lane-worktree.js';
import { changeWorktreeRegistry } from './worktree-admin.js';

/** What settling did: nothing (reused), or made the worktree again because it was gone or held something else. */
export type WorktreeSettlement =
  | { kind: 'reused' }
  /** `path`: where it was made again */
  | { kind: 'remade'; why: 'missing'; path: string }
  /** `was`: its HEAD then (null: unreadable), `branch`: the branch it was on (null: detached), `kept`: the ref its commits are kept under (null: nothing to keep) */
  | { kind: 'remade'; why: 'moved'; was: string | null; branch: string | null; kept: string | null };

/** The first of `<base>`, `<base>-2`, `<base>-3`, … that no ref holds yet, or that already holds `sha`. */
async function freeRef(root: string, base: string, sha: string): Promise<string> {
  for (let n = 1; ; n += 1) {
    const ref = n === 1 ? base : `${base}-${n}`;
    const held = await spawnGit(root, ['rev-parse', '--verify', '--quiet', ref]);
    if (held.exitCode !== 0 || held.stdout.trim() === sha) return ref;
  }
}

/**
 * Compare the worktree of `expected.story` with the journal: there, on `expected.branch`, at
 * `expected.commit` (mid-turn, at or on top of it: the worker's own commits). A worktree that is gone (deleted by hand, or left half made) is made again there.
 * One whose HEAD or branch is something else has its HEAD kept under
 * `refs/yoke/<run>/resumed/<story>/<attempt>` (unless the expected commit already contains it), and is
 * checked out again there, its changes dropped. Either way `.loop/.journal` links to the main one and
 * the main tree's dependency folders are linked in (`warn`: what could not be).
 */
export async function settleLaneWorktree(main: { root: string; loopDir: string }, run: string, expected: LaneExpectation, warn: (message: string) => void): Promise<WorktreeSettlement> {
  const path = await laneWorktreePath(main.root, expected.story);
  await changeWorktreeRegistry(main.root, () => discardHalfMadeWorktree(main.root, path));
  if (!(await isWorktree(path, main.root))) {
    if (await stat(path).then(() => true, () => false)) {
      throw new YokeError('workspace', `${path} exists but is not a git worktree, so yoke cannot make story ${expected.story}'s worktree again there; move it away and run \`yoke run\` again.`);
    }
    await addWorktree(main.root, path, expected.branch, expected.commit, expected.story);
    await furnishLane(main, path, warn);
    return { kind: 'remade', why: 'missing', path };
  }
  if (!expected.compareHead) {
    await furnishLane(main, path, warn);
    return { kind: 'reused' };
  }
  const was = await revParse(path, 'HEAD').catch(() => null);
  const symbolic = await spawnGit(path, ['symbolic-ref', '-q', 'HEAD']);
  const branch = symbolic.exitCode === 0 ? symbolic.stdout.trim().replace(/^refs\/heads\//, '') : null;
  // Mid-turn, the worker may have committed on the lane's branch (the candidate folds those commits in,
  // as it does without a crash): work on top of the recorded base is reused, like uncommitted work.
  const reusable = branch === expected.branch && was !== null
    && (was === expected.commit || (expected.phase === 'turn' && await contains(main.root, was, expected.commit)));
  if (reusable) {
    await furnishLane(main, path, warn);
    return { kind: 'reused' };
  }
  let kept: string | null = null;
  if (was !== null && !(await contains(main.root, expected.commit, was))) {
    kept = await freeRef(main.root, `refs/yoke/${run}/resumed/${expected.story}/${expected.attempt}`, was);
    await runGit(main.root, ['update-ref', kept, was]);
  }
  await resetWorktree(path, expected.branch, expected.commit, expected.story);
  await furnishLane(main, path, warn);
  return { kind: 'remade', why: 'moved', was, branch, kept };
}

/** The warning a remade worktree gives (`restart`: the lane's turn starts over from its restore step). */
export function settlementWarning(expected: LaneExpectation, settlement: Exclude<WorktreeSettlement, { kind: 'reused' }>, restart: boolean): string {
  const where = `on ${expected.branch} at ${expected.commit.slice(0, 12)}`;
  const then = restart ? '; its turn starts over from the restore step' : '';
  if (settlement.why === 'missing') return `story ${expected.story}'s worktree (${settlement.path}) was gone: made it again from the journal, ${where}${then}`;
  const was = `${settlement.was === null ? 'an unreadable HEAD' : settlement.was.slice(0, 12)}${settlement.branch === null ? ' (detached)' : ` on ${settlement.branch}`}`;
  const kept = settlement.kept === null ? '' : `kept ${settlement.was?.slice(0, 12) ?? '?'} as ${settlement.kept} and `;
  return `story ${expected.story}'s worktree was at ${was}, not ${where} as the journal records it: ${kept}made it again there${then}`;
}
