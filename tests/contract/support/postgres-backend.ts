// The contract harness for the PostgreSQL backend: a database of this test file's own on the run's
// real cluster (tests/support/postgres-global-setup.ts), initialized by `yoke store init`'s code, a workspace per journal.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PostgresJournalStore } from '../../../store/journal/postgres/postgres-journal-store.js';
import { initStore } from '../../../store/journal/postgres/store-schema.js';
import type { LeaseHolder } from '../../../store/journal/journal-store.js';
import { createTestDatabase } from '../../support/postgres-database.js';
import type { BackendHarness, StoreBackend } from './store-backend.js';

let database: Promise<string> | null = null;

/** This file's database, created and initialized on first use (the cluster is thrown away after the run). */
function storeUrl(): Promise<string> {
  database ??= createTestDatabase('contract').then(async (created) => {
    await initStore(created.url);
    return created.url;
  });
  return database;
}

/** The PostgreSQL backend: a fresh workspace name per journal. */
export const postgresBackend: StoreBackend = {
  name: 'postgres',
  canTear: false,
  // no `.loop/.journal` to put back: the rows live in the database
  remedy: /^(?!.*\.loop\/\.journal).*restore the workspace's journal rows from a database backup, or start over under another workspace name \(YOKE_WORKSPACE\)/,
  async create(): Promise<BackendHarness> {
    const url = await storeUrl();
    const workspace = `contract-${randomBytes(6).toString('hex')}`;
    const sql = async <T extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<T>> => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return await client.query<T>(text, values);
      } finally {
        await client.end();
      }
    };
    const open = (): PostgresJournalStore => new PostgresJournalStore(url, workspace, { warn: () => undefined });
    return {
      open,
      editRecord: async (seq, edit) => {
        const row = (await sql<{ text: string }>('SELECT text FROM yoke_journal WHERE workspace = $1 AND seq = $2', [workspace, seq])).rows[0];
        if (!row) throw new Error(`no record ${seq} in workspace ${workspace}`);
        const record = JSON.parse(row.text) as Record<string, unknown>;
        edit(record);
        const text = JSON.stringify(record);
        await sql('UPDATE yoke_journal SET text = $3::text, record = $3::text::jsonb WHERE workspace = $1 AND seq = $2', [workspace, seq, text]);
      },
      tear: () => Promise.reject(new Error('a PostgreSQL journal cannot tear: an append is one transaction')),
      plantLease: async (state): Promise<LeaseHolder> => {
        const expires = state === 'live' ? "now() + interval '1 hour'" : "now() - interval '1 minute'";
        await sql(
          `INSERT INTO yoke_lease (workspace, holder_id, host, pid, start_time, command, acquired_at, heartbeat_at, expires_at)
           VALUES ($1, 'elsewhere:4242:planted', 'elsewhere.example', 4242, '12345', 'yoke run', now(), now(), ${expires})`,
          [workspace],
        );
        const holder = await open().lease.holder();
        if (!holder) throw new Error('the planted lease cannot be read back');
        return holder;
      },
      dispose: async () => {
        await sql('DELETE FROM yoke_lease WHERE workspace = $1', [workspace]);
      },
    };
  },
};
