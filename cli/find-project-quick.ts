// Finding the project root without spawning git, for commands that must start fast.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { workspacePaths, type WorkspacePaths } from '../store/session/workspace-paths.js';

/** Variables that change how git finds a repository: with any of them set, ask git itself. */
const GIT_DISCOVERY_ENV = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_CEILING_DIRECTORIES', 'GIT_DISCOVERY_ACROSS_FILESYSTEM'];

/**
 * The workspace of the nearest folder at or above `cwd` holding `.git` (a folder, or a file for
 * worktrees and submodules), which is where `git rev-parse --show-toplevel` looks too. Falls back
 * to asking git (one process spawn) when git's discovery is steered by the environment or no
 * `.git` is found (git then says why, and the error is the usual one).
 */
export async function findProjectQuick(cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<WorkspacePaths> {
  const askGit = async () => (await import('./find-project.js')).findProject(cwd);
  if (GIT_DISCOVERY_ENV.some((name) => env[name] !== undefined)) return askGit();
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return workspacePaths(dir);
    if (dirname(dir) === dir) return askGit();
  }
}
