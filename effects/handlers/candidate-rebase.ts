// `candidate.rebase`: the integration lane puts a candidate on top of the target, or names the conflict (DESIGN §10).
import type { EffectHandler } from '../handler.js';
import { runGit, spawnGit } from '../git/run-git.js';
import { laneGit, outputTail, revParse, treeOf } from '../worktree/lane-git.js';

/**
 * In the lane's worktree: abort a rebase a crash left behind, put the tracked `.loop/` files back to
 * the commit (the lane's notes are never part of a candidate), then `git rebase <onto>`. A conflict
 * is aborted, never resolved: the result names the conflicting files and git's output, and HEAD is
 * the candidate again. A clean rebase names the paths the candidate changes on `onto` (`changed`: the
 * integration lane refuses one that changes a protected file). Safe to repeat (`retry`): a rebase
 * already done is a no-op.
 */
export const rebaseCandidate: EffectHandler<'candidate.rebase'> = {
  policy: 'retry',
  async execute(params, ctx) {
    await spawnGit(ctx.root, ['rebase', '--abort']);
    await spawnGit(ctx.root, ['checkout', '-q', 'HEAD', '--', '.loop']);
    const rebased = await laneGit(ctx.root, ['rebase', '-q', params.onto]);
    if (rebased.exitCode === 0) {
      const sha = await revParse(ctx.root, 'HEAD');
      const diff = await runGit(ctx.root, ['diff', '--name-only', '-z', '--no-renames', params.onto, sha]);
      const changed = diff.split('\0').filter((path) => path.length > 0).sort();
      return { ok: true, sha, tree: await treeOf(ctx.root, sha), files: [], output: outputTail(rebased), changed };
    }
    const unmerged = await spawnGit(ctx.root, ['diff', '--name-only', '--diff-filter=U']);
    const files = unmerged.stdout.split('\n').filter((line) => line.length > 0).sort();
    await spawnGit(ctx.root, ['rebase', '--abort']);
    const sha = await revParse(ctx.root, 'HEAD');
    return { ok: false, sha, tree: await treeOf(ctx.root, sha), files, output: outputTail(rebased) };
  },
};
