// `boundary.scan`: which project paths outside .loop/ changed since the baseline tree, and where HEAD is now.
import type { EffectHandler } from '../handler.js';
import { changedSince } from '../git/git-tree.js';
import { checkHead } from '../git/head-state.js';

/**
 * Changed paths (relative, posix, sorted, unique): modified, added (untracked, not ignored), deleted;
 * renames as delete + add; git-ignored files under `ignoredUnder` too. When the params say where
 * yoke left HEAD, also HEAD now and whether that commit is still on it (the machine decides
 * whether HEAD moved).
 */
export const scanBoundary: EffectHandler<'boundary.scan'> = {
  policy: 'retry',
  async execute(params, ctx) {
    const head = params.head === undefined ? null : checkHead(ctx.root, params.head.sha);
    head?.catch(() => undefined);
    const changed = await changedSince(ctx.root, params.baseline, params.ignoredUnder);
    return head === null ? { changed } : { changed, head: await head };
  },
};
