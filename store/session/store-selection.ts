// Which journal backend a workspace uses (DESIGN §14): the file journal, or a shared PostgreSQL store named by YOKE_STORE.
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseStoreUrl, STORE_URL_REFERENCE, storeLineOf } from '../../config/parse-store-url.js';
import { isPostgresUrl, redactStoreUrl } from '../journal/postgres/store-url.js';
import { YokeError } from '../../errors/yoke-error.js';

/** The file journal in `.loop/.journal/`, or workspace `workspace` of the PostgreSQL store at `url`. */
export type StoreSelection =
  | { kind: 'file' }
  | { kind: 'postgres'; url: string; workspace: string };

/** A workspace name in a shared store: letters, digits, `.`, `_`, `-` (1–100). */
const WORKSPACE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** The shared store's URL from YOKE_STORE, or null for the file journal. Anything else set there is refused (exit 2). */
export function storeUrlFromEnv(env: NodeJS.ProcessEnv = process.env): string | null {
  const value = env.YOKE_STORE?.trim();
  if (value === undefined || value === '' || value === 'file') return null;
  if (!isPostgresUrl(value)) {
    throw new YokeError('usage', `YOKE_STORE must be a postgres://… URL (or \`file\`, or unset for the file journal), not ${value.includes('@') ? redactStoreUrl(value) : JSON.stringify(value)}.`);
  }
  return value;
}

/** Check a workspace name given by the user (`--workspace`, YOKE_WORKSPACE, `queue add --name`). */
export function checkWorkspaceName(name: string, from: string): string {
  if (!WORKSPACE_NAME.test(name)) throw new YokeError('usage', `${from}: ${JSON.stringify(name)} is not a workspace name; use letters, digits, '.', '_' and '-' (at most 100).`);
  return name;
}

/**
 * The store URL a project's `.loop/yoke.conf` names with `store <url>` (null: no such line, or
 * `store file`), its `${NAME}` references replaced from `env`. A bad line or an unset variable is
 * refused naming file:line (exit 2). The expanded URL is only ever handed to the pool, never shown.
 */
export function storeUrlFromConf(root: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const file = join(root, '.loop', 'yoke.conf');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const line = storeLineOf(text);
  if (line === null) return null;
  const where = `${file}:${line.line}`;
  const setting = parseStoreUrl(line.argument);
  if (!setting.ok) throw new YokeError('usage', `${where}: ${setting.message}; ${setting.hint}.`);
  if (setting.value.kind === 'file') return null;
  return setting.value.written.replace(STORE_URL_REFERENCE, (_, name: string) => {
    const value = env[name];
    if (value === undefined || value === '') throw new YokeError('usage', `${where}: the store URL refers to \${${name}}, but ${name} is not set; set it in the environment (or drop the reference and use PGPASSWORD).`);
    return encodeURIComponent(value);
  });
}

/**
 * The variables the password of the `store` line's URL refers to (`postgres://yoke:${YOKE_DB_PASSWORD}@db/yoke`),
 * once each; none without a readable line. Only the password's: a `${USER}` elsewhere in the URL is no secret.
 */
export function storeUrlVariables(root: string): string[] {
  let text: string;
  try {
    text = readFileSync(join(root, '.loop', 'yoke.conf'), 'utf8');
  } catch {
    return [];
  }
  const line = storeLineOf(text);
  if (line === null) return [];
  const userinfo = /^[^:/]+:\/\/([^@/]*)@/.exec(line.argument)?.[1] ?? '';
  const password = userinfo.includes(':') ? userinfo.slice(userinfo.indexOf(':') + 1) : '';
  return [...new Set([...password.matchAll(STORE_URL_REFERENCE)].map((match) => match[1] ?? '').filter((name) => name !== ''))];
}

/** The store URL for the project at `root`: YOKE_STORE when set (`file` included), else its `store` directive; null is the file journal. */
export function storeUrlOf(root: string | null, env: NodeJS.ProcessEnv = process.env): string | null {
  if ((env.YOKE_STORE?.trim() ?? '') !== '') return storeUrlFromEnv(env);
  return root === null ? null : storeUrlFromConf(root, env);
}

/**
 * The store of the project at `root`: YOKE_STORE's PostgreSQL store when set (else the `store`
 * directive of its yoke.conf; `found` when the caller found the store already, as `--workspace`
 * does), the workspace named `name` (`--workspace`), else YOKE_WORKSPACE, else the project
 * folder's name; the file journal otherwise.
 */
export function selectStore(root: string, name: string | null = null, env: NodeJS.ProcessEnv = process.env, found: string | null = null): StoreSelection {
  const url = found ?? storeUrlOf(root, env);
  if (url === null) return { kind: 'file' };
  const workspace = name ?? (env.YOKE_WORKSPACE ? checkWorkspaceName(env.YOKE_WORKSPACE, 'YOKE_WORKSPACE') : sanitized(basename(root)));
  return { kind: 'postgres', url, workspace };
}

function sanitized(folder: string): string {
  const name = folder.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 100);
  return name === '' ? 'workspace' : name;
}
