// Where a parallel stories lane works (pure paths: `yoke replay --verify` checks a lane call's root with them): its git worktree, outside the project's tree and outside its
// `.git/` (DESIGN §10; docs/parallel.md says why it left `.git/yoke/worktrees/`).
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';

/** `$XDG_STATE_HOME` when it is an absolute path (the XDG spec ignores a relative one), else `~/.local/state`. */
export function stateHome(env: NodeJS.ProcessEnv): string {
  const given = env.XDG_STATE_HOME;
  if (given !== undefined && isAbsolute(given)) return given;
  return join(env.HOME !== undefined && isAbsolute(env.HOME) ? env.HOME : homedir(), '.local', 'state');
}

/**
 * The folder name of a project's lane worktrees: `<project folder name>-<first 12 hex of
 * sha256(root)>`, `root` the project root's real path. The name keeps it readable, the hash keeps
 * two projects of the same name apart.
 */
export function projectWorktreesName(projectRoot: string): string {
  return `${basename(projectRoot)}-${createHash('sha256').update(projectRoot).digest('hex').slice(0, 12)}`;
}

/**
 * `<state home>/yoke/worktrees/<project>-<hash>/<story>`: a lane's worktree. State, not cache: a
 * lane's uncommitted work must survive a crash. Outside the project's tree (the user's test runners,
 * linters and type checkers in the main tree never descend into another lane's copy) and outside any
 * `.git/` folder (Claude Code refuses, by itself, every write under one).
 */
export function laneWorktreeDir(home: string, projectRoot: string, story: string): string {
  return join(projectWorktreesPath(home, projectRoot), story);
}

/** `<state home>/yoke/worktrees/<project>-<hash>`: the folder of a project's lane worktrees. */
export function projectWorktreesPath(home: string, projectRoot: string): string {
  return join(home, 'yoke', 'worktrees', projectWorktreesName(projectRoot));
}

/** `<project>/.git/yoke/worktrees/<story>`: where runs journaled before made a lane's worktree; one still there is used on. */
export function legacyLaneWorktreePath(projectRoot: string, story: string): string {
  return join(projectRoot, '.git', 'yoke', 'worktrees', story);
}

/**
 * Is `path` where a lane of `story` of the project at `projectRoot` works: the old place, or the
 * state home's (any state home: it depends on the environment yoke ran in)? Pure, for `yoke replay --verify`.
 */
export function isLaneWorktreePath(path: string, projectRoot: string, story: string): boolean {
  if (path === legacyLaneWorktreePath(projectRoot, story)) return true;
  return isAbsolute(path) && path === laneWorktreeDir(dirname(dirname(dirname(dirname(path)))), projectRoot, story);
}

/** The folders a project installs its dependencies into (npm and friends, Python virtual environments): a lane links the main tree's. */
export const DEPENDENCY_FOLDERS = ['node_modules', '.venv', 'venv'] as const;

/** The project root and `.loop/` of the main working tree, for an effect that may run in a lane. */
export function mainTree(ctx: { root: string; loopDir: string; projectRoot?: string; projectLoopDir?: string }): { root: string; loopDir: string } {
  return { root: ctx.projectRoot ?? ctx.root, loopDir: ctx.projectLoopDir ?? ctx.loopDir };
}
