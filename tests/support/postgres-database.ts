// A database of its own for one test file, on the run's PostgreSQL cluster (tests/support/postgres-global-setup.ts).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/** A fresh database: its URL (with the credentials) and how to drop it. */
export interface TestDatabase {
  readonly url: string;
  readonly name: string;
  drop(): Promise<void>;
}

/** The cluster's superuser URL; throws (the test fails, loudly) when the cluster did not start. */
export function clusterUrl(): string {
  const url = inject('postgresUrl');
  if (url === null) throw new Error(`the test PostgreSQL cluster did not start: ${inject('postgresError') ?? 'unknown reason'}`);
  return url;
}

/** Create an empty database named after `label` (plus random letters) and resolve to it. */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const base = clusterUrl();
  const name = `t_${label.toLowerCase().replace(/[^a-z0-9]+/g, '_').slice(0, 40)}_${randomBytes(4).toString('hex')}`;
  await admin(base, `CREATE DATABASE "${name}"`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => admin(base, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

async function admin(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
