// `worktree.create`: a parallel stories lane's git worktree on its own branch, cut from the target (DESIGN §10).
import { isAbsolute, relative } from 'node:path';
import { stat } from 'node:fs/promises';
import type { EffectHandler } from '../handler.js';
import { captureWorkTree } from '../git/git-tree.js';
import { runGit } from '../git/run-git.js';
import { discardHalfMadeWorktree } from '../worktree/half-made-worktree.js';
import { contains, revParse } from '../worktree/lane-git.js';
import { addWorktree, furnishLane, isWorktree, resetWorktree } from '../worktree/lane-worktree.js';
import { mainTree, stateHome } from '../../config/lane-worktree-path.js';
import { laneWorktreePath } from '../worktree/locate-lane-worktree.js';
import { changeWorktreeRegistry } from '../worktree/worktree-admin.js';

/**
 * `git worktree add -B <branch> <lane worktree> <base>` (locate-lane-worktree.ts); an existing worktree of the story
 * (an earlier attempt, or a retry after a crash) is reset to `base` instead, and commits it held that
 * the target lacks are kept under `refs/yoke/<run>/retained/<story>/<attempt>` first, so no candidate
 * is ever lost. A worktree that a kill left half made inside `git worktree add` is removed and made
 * again. The lane's `.loop/.journal` links to the main one: transcripts, usage files and blobs
 * stay in the one journal folder; the main tree's git-ignored dependency folders (`node_modules`,
 * `.venv`, `venv`) are linked in, hidden from git. Safe to repeat (`retry`).
 */
export const createWorktree: EffectHandler<'worktree.create'> = {
  policy: 'retry',
  async execute(params, ctx) {
    const main = mainTree(ctx);
    const path = await laneWorktreePath(main.root, params.story);
    if (await changeWorktreeRegistry(main.root, () => discardHalfMadeWorktree(main.root, path))) {
      ctx.warn(`the worktree of story ${params.story} was left half made by a crash; making it again`);
    }
    if (await isWorktree(path, main.root)) {
      const head = await revParse(path, 'HEAD');
      if (head !== params.base && !(await contains(main.root, params.base, head))) {
        await runGit(main.root, ['update-ref', `refs/yoke/${ctx.run}/retained/${params.story}/${params.attempt}`, head]);
      }
      await resetWorktree(path, params.branch, params.base, params.story);
    } else {
      // A worktree directory deleted by hand leaves a stale registration: prune it, then add again.
      if (await stat(path).then(() => true, () => false)) throw new Error(`${path} exists but is not a git worktree; move it away and run \`yoke run\` again`);
      await addWorktree(main.root, path, params.branch, params.base, params.story);
    }
    await furnishLane(main, path, (message) => ctx.warn(message));
    return { sha: params.base, tree: await captureWorkTree(path), path: journaledPath(main.root, path) };
  },
};

/**
 * The worktree's place as journaled: relative to the project root when inside it (the old place),
 * else with the state home spelled `$XDG_STATE_HOME` or `~/.local/state`, so no absolute path of this
 * machine goes into the journal. For people only: where a lane works is decided again each time.
 */
function journaledPath(root: string, path: string): string {
  const inside = relative(root, path);
  if (!inside.startsWith('..') && !isAbsolute(inside)) return inside;
  const given = process.env.XDG_STATE_HOME;
  const state = given !== undefined && isAbsolute(given) ? { home: given, as: '$XDG_STATE_HOME' } : { home: stateHome(process.env), as: '~/.local/state' };
  const under = relative(state.home, path);
  return under.startsWith('..') || isAbsolute(under) ? path : `${state.as}/${under}`;
}
