// What yoke hands the processes it starts (agents, guards, criteria, hooks, git): its own
// environment without the journal store's credentials, and which values to redact should one
// turn up in their output anyway (read from /proc, say).
import { MIN_SECRET_CHARS, type SecretValue } from './redact-secrets.js';

/**
 * yoke's own credentials for the journal store (DESIGN §14): the fleet worker sets YOKE_STORE,
 * with the password, for the `yoke run` it starts. Nothing yoke starts in turn needs them.
 */
export const WITHHELD_VARIABLES = ['YOKE_STORE', 'PGPASSWORD'] as const;

/** The variables the workspace's `store` URL refers to (`${YOKE_DB_PASSWORD}`), withheld as well once known. */
const storeReferences = new Set<string>();

/**
 * Withhold `names` too from every process yoke starts from now on: the variables the `store` line's
 * URL refers to (the store password among them), which a run or a check learns as it opens its store.
 */
export function withholdVariables(names: readonly string[]): void {
  for (const name of names) storeReferences.add(name);
}

/**
 * A copy of `env` without {@link WITHHELD_VARIABLES} and the variables {@link withholdVariables}
 * named: the base environment of every process yoke starts.
 * @example childEnvironment({ HOME: '/root', YOKE_STORE: 'postgres://yoke:pw@db/yoke' }) // { HOME: '/root' }
 */
export function childEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of [...WITHHELD_VARIABLES, ...storeReferences]) delete copy[name];
  return copy;
}

/**
 * The store credentials' values, to redact wherever yoke redacts secrets: the password of the
 * store URL in use (`storeUrl`, from YOKE_STORE or the `store` directive with its `${NAME}`s
 * expanded), as written and decoded, named YOKE_STORE; and PGPASSWORD. Values shorter than
 * {@link MIN_SECRET_CHARS} are left, as every secret is.
 * @example withheldSecrets({}, 'postgres://yoke:s3cret-pw@db/yoke') // [{ name: 'YOKE_STORE', value: 's3cret-pw' }]
 */
export function withheldSecrets(env: NodeJS.ProcessEnv, storeUrl: string | null): SecretValue[] {
  const secrets: SecretValue[] = [];
  const written = storeUrl === null ? '' : passwordOf(storeUrl);
  for (const value of new Set([written, decoded(written)])) secrets.push({ name: 'YOKE_STORE', value });
  secrets.push({ name: 'PGPASSWORD', value: env.PGPASSWORD ?? '' });
  return secrets.filter((secret) => secret.value.length >= MIN_SECRET_CHARS);
}

function passwordOf(url: string): string {
  try {
    return new URL(url).password;
  } catch {
    return '';
  }
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
