// `worktree.create`: a parallel stories lane's git worktree on its own branch, cut from the target (DESIGN §10).
import { mkdir, stat, symlink } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { journalDirOf } from '../../config/workspace-layout.js';
import type { EffectHandler } from '../handler.js';
import { captureWorkTree } from '../git/git-tree.js';
import { runGit } from '../git/run-git.js';
import { discardHalfMadeWorktree } from '../worktree/half-made-worktree.js';
import { contains, laneGit, revParse } from '../worktree/lane-git.js';
import { laneWorktreePath, mainTree } from '../worktree/lane-worktree-path.js';
import { changeWorktreeRegistry } from '../worktree/worktree-admin.js';

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

/**
 * `git worktree add -B <branch> .git/yoke/worktrees/<story> <base>`; an existing worktree of the story
 * (an earlier attempt, or a retry after a crash) is reset to `base` instead, and commits it held that
 * the target lacks are kept under `refs/yoke/<run>/retained/<story>/<attempt>` first, so no candidate
 * is ever lost. A worktree that a kill left half made inside `git worktree add` is removed and made
 * again. The lane's `.loop/.journal` links to the main one: transcripts, usage files and blobs
 * stay in the one journal folder. Safe to repeat (`retry`).
 */
export const createWorktree: EffectHandler<'worktree.create'> = {
  policy: 'retry',
  async execute(params, ctx) {
    const main = mainTree(ctx);
    const path = laneWorktreePath(main.root, params.story);
    if (await changeWorktreeRegistry(main.root, () => discardHalfMadeWorktree(main.root, path))) {
      ctx.warn(`the worktree of story ${params.story} was left half made by a crash; making it again`);
    }
    if (await exists(join(path, '.git'))) {
      const head = await revParse(path, 'HEAD');
      if (head !== params.base && !(await contains(main.root, params.base, head))) {
        await runGit(main.root, ['update-ref', `refs/yoke/${ctx.run}/retained/${params.story}/${params.attempt}`, head]);
      }
      const checkout = await laneGit(path, ['checkout', '-q', '-f', '-B', params.branch, params.base]);
      if (checkout.exitCode !== 0) throw new Error(`could not reset the worktree of ${params.story}: ${checkout.stderr.trim()}`);
      await runGit(path, ['clean', '-q', '-fd', '-e', '.loop/.journal']);
    } else {
      // A worktree directory deleted by hand leaves a stale registration: prune it, then add again.
      if (await exists(path)) throw new Error(`${relative(main.root, path)} exists but is not a git worktree; move it away and run \`yoke run\` again`);
      await changeWorktreeRegistry(main.root, async () => {
        await runGit(main.root, ['worktree', 'prune']);
        await mkdir(dirname(path), { recursive: true });
        const added = await laneGit(main.root, ['worktree', 'add', '-q', '-f', '-B', params.branch, path, params.base]);
        if (added.exitCode !== 0) throw new Error(`git worktree add failed for ${params.story}: ${added.stderr.trim()}`);
      });
    }
    await mkdir(join(path, '.loop'), { recursive: true });
    const journal = journalDirOf(join(path, '.loop'));
    if (!(await exists(journal))) await symlink(journalDirOf(main.loopDir), journal);
    return { sha: params.base, tree: await captureWorkTree(path), path: relative(main.root, path) };
  },
};
