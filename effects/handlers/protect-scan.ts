// `protect.scan`: the files the `protect` patterns cover now, each kept as a blob (DESIGN §16).
import type { EffectHandler } from '../handler.js';
import { keepBlobs, listProtected } from '../protect/list-protected.js';
import { mainTree } from '../../config/lane-worktree-path.js';

/**
 * List and hash every covered file (git-ignored ones too; symlinks by their link text, never
 * followed) and keep each content as a blob, so an agent's version of a protected file survives
 * the restore. In a parallel lane the files are the lane worktree's, the blobs the main workspace's.
 * Safe to repeat.
 */
export const scanProtected: EffectHandler<'protect.scan'> = {
  policy: 'retry',
  async execute(params, ctx) {
    return { files: await keepBlobs(mainTree(ctx).loopDir, await listProtected(ctx.root, params.patterns)) };
  },
};
