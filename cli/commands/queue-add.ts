// `yoke queue add <git-url>`: queue a workspace for the fleet's workers (DESIGN §14).
import { isAbsolute, resolve } from 'node:path';
import { enqueueJob } from '../../store/fleet/enqueue-job.js';
import { checkWorkspaceName } from '../../store/session/store-selection.js';
import { sharedStoreUrl } from '../../store/session/shared-store-url.js';
import { YokeError } from '../../errors/yoke-error.js';

/** `queue add`'s flags. */
export interface QueueAddFlags {
  ref?: string;
  /** one of the lifecycles the fleet takes jobs for (commander checks it against their descriptors) */
  mode?: string;
  name?: string;
  json: boolean;
}

/** Queue the repository at `repository`; prints the job (or the one already waiting). */
export async function queueAddCommand(repository: string, flags: QueueAddFlags): Promise<number> {
  const url = sharedStoreUrl('yoke queue add');
  const where = repositoryLocation(repository);
  const workspace = checkWorkspaceName(flags.name ?? nameOf(where), flags.name === undefined ? 'the workspace name taken from the URL (give one with --name)' : '--name');
  const result = await enqueueJob(url, { repository: where, ref: flags.ref ?? null, mode: flags.mode ?? null, workspace });
  if (result.credentialsRemoved) {
    process.stderr.write(`yoke queue add: the user name and password in the URL were not stored; workers clone ${result.repository} with their own git credentials (a credential helper or ssh key on each worker machine, docs/fleet.md).\n`);
  }
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  }
  if (result.queued) process.stdout.write(`queued job ${result.job} for workspace ${workspace}\n`);
  else process.stdout.write(`workspace ${workspace} already has job ${result.job ?? '?'} waiting (${result.state ?? '?'}); nothing queued\n`);
  return 0;
}

/** A URL as given; a local path made absolute (a worker may run in another folder). */
function repositoryLocation(repository: string): string {
  if (repository.trim() === '') throw new YokeError('usage', 'yoke queue add needs the git URL of the repository to run, like `yoke queue add git@host:team/shop.git`.');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(repository) || /^[^/]+@[^/]+:/.test(repository) || isAbsolute(repository)) return repository;
  return resolve(repository);
}

/** The workspace name a URL suggests: its last path part without `.git`, made a valid name. */
function nameOf(location: string): string {
  const last = location.replace(/\/+$/, '').split(/[/:]/).at(-1) ?? '';
  return last.replace(/\.git$/, '').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 100);
}
