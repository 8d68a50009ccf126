// `boundary.scan`: which project paths outside .loop/ changed since the baseline tree.
import type { EffectHandler } from '../handler.js';
import { changedSince } from '../git/git-tree.js';

/** Changed paths (relative, posix, sorted, unique): modified, added (untracked, not ignored), deleted; renames as delete + add. */
export const scanBoundary: EffectHandler<'boundary.scan'> = {
  policy: 'retry',
  async execute(params, ctx) {
    return { changed: await changedSince(ctx.root, params.baseline) };
  },
};
