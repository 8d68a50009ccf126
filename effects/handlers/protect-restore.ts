// `protect.restore`: undo an agent's change to protected files, from the baseline's blobs (DESIGN §16).
import type { EffectHandler } from '../handler.js';
import { restoreProtected } from '../protect/restore-protected.js';
import { mainTree } from '../../config/lane-worktree-path.js';

/** Write the baseline's files back and remove the ones it did not have (in a lane: in its worktree, from the main workspace's blobs); idempotent (`retry`). */
export const restoreProtectedFiles: EffectHandler<'protect.restore'> = {
  policy: 'retry',
  async execute(params, ctx) {
    return { restored: await restoreProtected(ctx.root, mainTree(ctx).loopDir, params.write, params.remove) };
  },
};
