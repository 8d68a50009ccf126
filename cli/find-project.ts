// Locates the project (the git work tree containing the current folder).
import { execFileSync } from 'node:child_process';
import { workspacePaths, type WorkspacePaths } from '../store/session/workspace-paths.js';
import { YokeError } from '../errors/yoke-error.js';

/** The workspace for `cwd`; refuses (exit 3) outside a git work tree. */
export function findProject(cwd: string): WorkspacePaths {
  let root: string;
  try {
    root = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    throw new YokeError('workspace', `${cwd} is not inside a git repository; yoke works in a git project (run \`git init\` first).`);
  }
  return workspacePaths(root);
}
