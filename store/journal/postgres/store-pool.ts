// One connection pool per store URL and process, and the one-sentence refusals for a store yoke cannot use.
import type { Pool, PoolClient } from 'pg';
import { YokeError } from '../../../errors/yoke-error.js';
import { redactStoreUrl } from './store-url.js';

const pools = new Map<string, Promise<Pool>>();

/**
 * The pool for `url`, shared by every store of this process. `pg` loads only here (the file
 * backend never loads it). Idle connections do not keep the process alive, and a connection the
 * server drops is replaced on the next query.
 */
export function storePool(url: string): Promise<Pool> {
  let pool = pools.get(url);
  if (!pool) {
    pool = import('pg').then(({ default: pg }) => {
      const created = new pg.Pool({ connectionString: url, max: 4, allowExitOnIdle: true, connectionTimeoutMillis: 10_000 });
      created.on('error', () => undefined); // an idle connection lost (server restart): the pool replaces it
      return created;
    });
    pools.set(url, pool);
  }
  return pool;
}

/** Close every pool this process opened (tests, `yoke worker` on exit). */
export async function closeStorePools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map(async (pool) => (await pool).end()));
}

/** Run `work` on one connection of the store at `url`; a connection failure becomes `unreachable(url)`. */
export async function withClient<T>(url: string, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const pool = await storePool(url);
  let client: PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw unreachable(url, error);
  }
  try {
    return await work(client);
  } finally {
    client.release();
  }
}

/** Run `work` in one transaction (BEGIN … COMMIT, ROLLBACK on any failure). */
export function inTransaction<T>(url: string, work: (client: PoolClient) => Promise<T>): Promise<T> {
  return withClient(url, async (client) => {
    await client.query('BEGIN');
    try {
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  });
}

/** The refusal for a store that cannot be reached or refuses the credentials (exit 3), without the secrets. */
export function unreachable(url: string, error: unknown): YokeError {
  const shown = redactStoreUrl(url);
  const code = (error as { code?: string }).code;
  const reason = code === '28P01' || code === '28000'
    ? 'it refused the user name or password in the URL'
    : code === '3D000'
      ? 'its database does not exist (create it, then run `yoke store init`)'
      : `it cannot be reached (${code ?? (error instanceof Error ? error.message.replace(/postgres(ql)?:\/\/\S+/gi, shown) : String(error))})`;
  return new YokeError('workspace', `the store ${shown} cannot be used: ${reason}; check YOKE_STORE (or the store directive) and that the server runs.`, [], { cause: error });
}

/** Is `error` PostgreSQL's unique violation (the append fence: the seq was taken)? */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === '23505';
}
