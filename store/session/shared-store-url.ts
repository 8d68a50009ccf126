// The shared store the fleet commands (`queue add`, `worker`, `fleet`) and `--workspace` use: YOKE_STORE, else the `store` directive of the project around the current folder.
import { execFileSync } from 'node:child_process';
import { storeUrlOf } from './store-selection.js';
import { YokeError } from '../../errors/yoke-error.js';

/** The shared store named around `cwd`: YOKE_STORE, else the `store` directive of the project around it; null: none. */
export function storeUrlAround(cwd: string = process.cwd(), env: NodeJS.ProcessEnv = process.env): string | null {
  return storeUrlOf(projectRoot(cwd), env);
}

/** The PostgreSQL store URL for `command`; none is a usage error (exit 2): the fleet needs a shared store. */
export function sharedStoreUrl(command: string, cwd: string = process.cwd(), env: NodeJS.ProcessEnv = process.env): string {
  const url = storeUrlAround(cwd, env);
  if (url === null) throw new YokeError('usage', `${command} needs a shared store: set YOKE_STORE=postgres://… (or a \`store\` directive), then run \`yoke store init\` once (see docs/fleet.md).`);
  return url;
}

function projectRoot(cwd: string): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null;
  } catch {
    return null;
  }
}
