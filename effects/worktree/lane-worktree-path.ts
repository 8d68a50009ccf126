// Where a parallel stories lane works: its git worktree inside the project's git directory (DESIGN §10).
import { join } from 'node:path';

/** `<project>/.git/yoke/worktrees/<story>`: outside the project's tree, so no boundary scan or `git status` sees it. */
export function laneWorktreePath(projectRoot: string, story: string): string {
  return join(projectRoot, '.git', 'yoke', 'worktrees', story);
}

/** The project root and `.loop/` of the main working tree, for an effect that may run in a lane. */
export function mainTree(ctx: { root: string; loopDir: string; projectRoot?: string; projectLoopDir?: string }): { root: string; loopDir: string } {
  return { root: ctx.projectRoot ?? ctx.root, loopDir: ctx.projectLoopDir ?? ctx.loopDir };
}
