// Which workspace a read command looks at: the project around the current folder, or `--workspace <name>` in the shared store.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { checkWorkspaceName } from '../store/session/store-selection.js';
import { storeUrlAround } from '../store/session/shared-store-url.js';
import { workspacePaths, type WorkspacePaths } from '../store/session/workspace-paths.js';
import { YokeError } from '../errors/yoke-error.js';

/**
 * `--workspace <name>`: that workspace of the shared store YOKE_STORE names (else the `store`
 * directive of the project around the current folder, as the fleet commands find it), from any
 * folder; its local caches, such as the status view, live under ~/.cache/yoke/workspaces/<name>/.
 * Without it, `local()` finds the project as usual.
 */
export async function workspaceTarget(name: string | undefined, local: () => WorkspacePaths | Promise<WorkspacePaths>): Promise<WorkspacePaths> {
  if (name === undefined) return local();
  const url = storeUrlAround();
  if (url === null) throw new YokeError('usage', `--workspace ${name} names a workspace of a shared store, but YOKE_STORE is not set and no \`store\` directive names one here; set YOKE_STORE=postgres://… or run it inside a project whose .loop/yoke.conf says \`store postgres://…\` (see docs/fleet.md).`);
  const checked = checkWorkspaceName(name, '--workspace');
  return workspacePaths(join(homedir(), '.cache', 'yoke', 'workspaces', checked), checked, url);
}

/** What to do after an operator's answer or raise: `yoke run`, or with `--workspace` the run's next `yoke run` wherever it works (a fleet job paused twice is dead-lettered: queued again). */
export function resumeHint(name: string | undefined): string {
  if (name === undefined) return 'Run `yoke run` to continue.';
  return `The run goes on at its next \`yoke run\` in a checkout of workspace ${name}; a fleet job's next attempt, or, once the job is dead-lettered (a second pause in a row), \`yoke queue add\` again (docs/fleet.md).`;
}
