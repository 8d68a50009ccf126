// The test PostgreSQL cluster itself: it runs (never skipped), on 127.0.0.1, with a database per file.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './postgres-database.js';

describe('the test PostgreSQL cluster', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('cluster');
  });
  afterAll(async () => {
    await database.drop();
  });

  it('answers on 127.0.0.1 in a database of this file\'s own, with password auth', async () => {
    const url = new URL(database.url);
    expect(url.hostname).toBe('127.0.0.1');
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const row = (await client.query<{ db: string; version: string }>('SELECT current_database() AS db, current_setting(\'server_version_num\') AS version')).rows[0];
      expect(row?.db).toBe(database.name);
      expect(Number(row?.version)).toBeGreaterThanOrEqual(150000);
    } finally {
      await client.end();
    }
    const wrong = new URL(database.url);
    wrong.password = 'not-the-password';
    const refused = new pg.Client({ connectionString: wrong.toString() });
    await expect(refused.connect()).rejects.toThrow(/password authentication failed/);
  });
});
