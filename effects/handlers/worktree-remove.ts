// `worktree.remove`: a lane's worktree and branch go only once the target contains the story's commit (DESIGN §10).
import { rmdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { EffectHandler } from '../handler.js';
import { spawnGit } from '../git/run-git.js';
import { contains } from '../worktree/lane-git.js';
import { mainTree } from '../../config/lane-worktree-path.js';
import { laneWorktreePath } from '../worktree/locate-lane-worktree.js';
import { changeWorktreeRegistry } from '../worktree/worktree-admin.js';

/**
 * `git worktree remove --force` and `git branch -D`, after checking that `target` contains `landed`;
 * else nothing is removed. The project's folder of lane worktrees goes with its last lane. Safe to repeat.
 */
export const removeWorktree: EffectHandler<'worktree.remove'> = {
  policy: 'retry',
  async execute(params, ctx) {
    const root = mainTree(ctx).root;
    if (!(await contains(root, params.target, params.landed))) return { removed: false };
    const path = await laneWorktreePath(root, params.story);
    await changeWorktreeRegistry(root, async () => {
      if (await stat(path).then(() => true, () => false)) await spawnGit(root, ['worktree', 'remove', '--force', path]);
      await spawnGit(root, ['worktree', 'prune']);
      await spawnGit(root, ['branch', '-q', '-D', params.branch]);
      // the project's folder of lanes (or the old place's, so finding a lane stops asking git about
      // it) goes once empty: another lane's worktree still there keeps it (rmdir removes only an empty one)
      await rmdir(dirname(path)).catch(() => undefined);
    });
    return { removed: true };
  },
};
