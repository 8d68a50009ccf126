// The journal store's credentials as values to redact: what `yoke run` and `yoke check` hand their effects.
import { withheldSecrets, withholdVariables } from '../../effects/process/child-environment.js';
import type { SecretValue } from '../../effects/process/redact-secrets.js';
import { storeUrlOf, storeUrlVariables } from './store-selection.js';
import type { WorkspacePaths } from './workspace-paths.js';

/**
 * The password of the store the workspace at `paths` uses (YOKE_STORE, else its `store` directive
 * with `${NAME}`s expanded) and PGPASSWORD, for redaction; none for the file journal without
 * PGPASSWORD. A store URL that cannot be read gives none (opening the store refuses it first).
 * The variables the `store` line refers to are withheld from every process yoke starts from then on.
 */
export function storeSecrets(paths: Pick<WorkspacePaths, 'root'>, env: NodeJS.ProcessEnv = process.env): SecretValue[] {
  // The variables its `store` line refers to (`${YOKE_DB_PASSWORD}`) reach no process yoke starts either.
  withholdVariables(storeUrlVariables(paths.root));
  let url: string | null;
  try {
    url = storeUrlOf(paths.root, env);
  } catch {
    url = null;
  }
  return withheldSecrets(env, url);
}
