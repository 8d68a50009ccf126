// `worktree.remove`: a lane's worktree and branch go only once the target contains the story's commit (DESIGN §10).
import { stat } from 'node:fs/promises';
import type { EffectHandler } from '../handler.js';
import { spawnGit } from '../git/run-git.js';
import { contains } from '../worktree/lane-git.js';
import { laneWorktreePath, mainTree } from '../worktree/lane-worktree-path.js';
import { changeWorktreeRegistry } from '../worktree/worktree-admin.js';

/** `git worktree remove --force` and `git branch -D`, after checking that `target` contains `landed`; else nothing is removed. Safe to repeat. */
export const removeWorktree: EffectHandler<'worktree.remove'> = {
  policy: 'retry',
  async execute(params, ctx) {
    const root = mainTree(ctx).root;
    if (!(await contains(root, params.target, params.landed))) return { removed: false };
    const path = laneWorktreePath(root, params.story);
    await changeWorktreeRegistry(root, async () => {
      if (await stat(path).then(() => true, () => false)) await spawnGit(root, ['worktree', 'remove', '--force', path]);
      await spawnGit(root, ['worktree', 'prune']);
      await spawnGit(root, ['branch', '-q', '-D', params.branch]);
    });
    return { removed: true };
  },
};
