// `boundary.scan`: which project paths outside .loop/ changed since the baseline tree, and where HEAD is now.
import type { EffectHandler } from '../handler.js';
import { scanWorkTree } from '../git/git-tree.js';
import { compareHead, readHead } from '../git/head-state.js';

/**
 * Changed paths (relative, posix, sorted, unique): modified, added (untracked, not ignored), deleted;
 * renames as delete + add; git-ignored files under `ignoredUnder` too. When the params say where
 * yoke left HEAD, also HEAD now and whether that commit is still on it (the machine decides
 * whether HEAD moved). One process in the common case (see `scanWorkTree`).
 */
export const scanBoundary: EffectHandler<'boundary.scan'> = {
  policy: 'retry',
  async execute(params, ctx) {
    const scan = await scanWorkTree(ctx.root, params.baseline, { ignoredUnder: params.ignoredUnder ?? [], head: params.head !== undefined });
    if (params.head === undefined) return { changed: scan.changed };
    // null: an unborn branch, which the script cannot name; ask git directly (rare).
    const head = await compareHead(ctx.root, scan.head ?? (await readHead(ctx.root)), params.head.sha);
    return { changed: scan.changed, head };
  },
};
