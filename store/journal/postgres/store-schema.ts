// The PostgreSQL store's tables, versioned: created and migrated by `yoke store init`, checked before every use.
import type { PoolClient } from 'pg';
import { YokeError } from '../../../errors/yoke-error.js';
import { inTransaction, withClient } from './store-pool.js';
import { redactStoreUrl } from './store-url.js';

/**
 * The migrations, in order: migration N takes the schema from version N-1 to N. Never edit a
 * shipped one; add the next. The version this yoke writes is their count.
 */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE yoke_workspace (
    name text PRIMARY KEY,
    -- bumped by every change to the workspace's journal rows: the stamp and the integrity check
    revision bigint NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE TABLE yoke_journal (
    workspace text NOT NULL REFERENCES yoke_workspace (name),
    seq bigint NOT NULL CHECK (seq > 0),
    prev text NOT NULL,
    hash text NOT NULL,
    -- the exact text the hash covers; record is the same as jsonb, for queries (null when jsonb cannot hold it)
    text text NOT NULL,
    record jsonb,
    PRIMARY KEY (workspace, seq)
  );
  CREATE TABLE yoke_journal_kept (
    kept_as text NOT NULL,
    workspace text NOT NULL,
    seq bigint NOT NULL,
    text text NOT NULL,
    PRIMARY KEY (kept_as, seq)
  );
  CREATE TABLE yoke_lease (
    workspace text PRIMARY KEY,
    holder_id text NOT NULL,
    host text NOT NULL,
    pid integer NOT NULL,
    start_time text,
    command text NOT NULL,
    acquired_at timestamptz NOT NULL,
    heartbeat_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
  );
  CREATE TABLE yoke_blob (
    workspace text NOT NULL,
    key text NOT NULL,
    bytes bytea NOT NULL,
    PRIMARY KEY (workspace, key)
  );
  CREATE FUNCTION yoke_revise_new() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE yoke_workspace SET revision = revision + 1 WHERE name IN (SELECT DISTINCT workspace FROM new_rows);
    RETURN NULL;
  END $$;
  CREATE FUNCTION yoke_revise_old() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE yoke_workspace SET revision = revision + 1 WHERE name IN (SELECT DISTINCT workspace FROM old_rows);
    RETURN NULL;
  END $$;
  CREATE TRIGGER yoke_journal_inserted AFTER INSERT ON yoke_journal REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION yoke_revise_new();
  CREATE TRIGGER yoke_journal_updated AFTER UPDATE ON yoke_journal REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION yoke_revise_new();
  CREATE TRIGGER yoke_journal_deleted AFTER DELETE ON yoke_journal REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION yoke_revise_old();
  `,
  // 2: the fleet (issue 19). The queue itself is pg-boss's (schema pgboss); these are yoke's own rows beside it.
  `
  CREATE TABLE yoke_worker (
    id text PRIMARY KEY,
    host text NOT NULL,
    pid integer NOT NULL,
    concurrency integer NOT NULL,
    started_at timestamptz NOT NULL DEFAULT now(),
    heartbeat_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    -- running, stopped (SIGTERM, clean), dead (stopped beating; its jobs were handed back)
    state text NOT NULL
  );
  -- one row per queued job: what it asks for, and the journal length when it was queued (its run is the one after)
  CREATE TABLE yoke_job (
    job text PRIMARY KEY,
    workspace text NOT NULL,
    repository text NOT NULL,
    ref text,
    mode text,
    after_seq bigint NOT NULL,
    queued_at timestamptz NOT NULL DEFAULT now()
  );
  -- which worker works on which job right now (deleted when it lets go, or when it is found dead)
  CREATE TABLE yoke_job_claim (
    job text PRIMARY KEY,
    worker text NOT NULL,
    workspace text NOT NULL,
    claimed_at timestamptz NOT NULL DEFAULT now()
  );
  `,
];

/** The store schema version this yoke reads and writes. */
export const STORE_SCHEMA_VERSION = MIGRATIONS.length;

/** What `yoke store init` did. */
export interface StoreInit {
  from: number;
  to: number;
}

/**
 * Create the schema, or migrate it to this yoke's version, in one transaction under an advisory
 * lock (two `yoke store init` at once: one waits, then finds nothing to do). A schema from a newer
 * yoke is refused (exit 3), untouched.
 */
export function initStore(url: string): Promise<StoreInit> {
  return inTransaction(url, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(7955424)'); // "yoke" on a phone keypad
    await client.query('CREATE TABLE IF NOT EXISTS yoke_schema (id integer PRIMARY KEY CHECK (id = 1), version integer NOT NULL, written_by text NOT NULL)');
    const from = await storedVersion(client) ?? 0;
    if (from > STORE_SCHEMA_VERSION) throw newerSchema(url, from);
    for (let version = from + 1; version <= STORE_SCHEMA_VERSION; version += 1) await client.query(MIGRATIONS[version - 1] ?? '');
    await client.query(
      'INSERT INTO yoke_schema (id, version, written_by) VALUES (1, $1, $2) ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version, written_by = EXCLUDED.written_by',
      [STORE_SCHEMA_VERSION, 'yoke'],
    );
    return { from, to: STORE_SCHEMA_VERSION };
  });
}

const checked = new Map<string, Promise<void>>();

/**
 * Refuse a store this yoke cannot use (exit 3, one sentence, nothing written): unreachable, bad
 * credentials, no schema yet or an older one (`yoke store init`), or a newer one (upgrade yoke).
 * Checked once per URL and process.
 */
export function assertStoreReady(url: string): Promise<void> {
  let check = checked.get(url);
  if (!check) {
    check = withClient(url, async (client) => {
      const version = await storedVersion(client);
      if (version === null) throw new YokeError('workspace', `the store ${redactStoreUrl(url)} has no yoke schema yet; run \`yoke store init\` once (with YOKE_STORE set), then try again.`);
      if (version > STORE_SCHEMA_VERSION) throw newerSchema(url, version);
      if (version < STORE_SCHEMA_VERSION) throw new YokeError('workspace', `the store ${redactStoreUrl(url)} has schema version ${version}, older than this yoke's ${STORE_SCHEMA_VERSION}; run \`yoke store init\` to migrate it, then try again.`);
    });
    check.catch(() => checked.delete(url)); // a refusal is not remembered: the user may fix it meanwhile
    checked.set(url, check);
  }
  return check;
}

async function storedVersion(client: PoolClient): Promise<number | null> {
  const exists = await client.query<{ present: boolean }>("SELECT to_regclass('yoke_schema') IS NOT NULL AS present");
  if (exists.rows[0]?.present !== true) return null;
  const row = await client.query<{ version: number }>('SELECT version FROM yoke_schema WHERE id = 1');
  return row.rows[0]?.version ?? null;
}

function newerSchema(url: string, version: number): YokeError {
  return new YokeError('workspace', `the store ${redactStoreUrl(url)} has schema version ${version}, written by a newer yoke than this one (it knows ${STORE_SCHEMA_VERSION}); upgrade yoke on this machine.`);
}
