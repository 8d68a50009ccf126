// vitest globalSetup: one throwaway PostgreSQL cluster for the whole test run (tests/support/postgres-cluster.ts).
// Test files that use it take a database of their own (tests/support/postgres-database.ts).
import type { TestProject } from 'vitest/node';
import { startPostgresCluster, type PostgresCluster } from './postgres-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** the cluster's superuser URL (database `postgres`), or null when it could not start */
    postgresUrl: string | null;
    /** why it could not start (null when it did) */
    postgresError: string | null;
  }
}

let cluster: PostgresCluster | null = null;

/** Start the cluster; a failure is handed to the tests that need it (they fail with it), never skipped. */
export default async function setup(project: TestProject): Promise<() => void> {
  try {
    cluster = await startPostgresCluster();
    project.provide('postgresUrl', cluster.url());
    project.provide('postgresError', null);
  } catch (error) {
    project.provide('postgresUrl', null);
    project.provide('postgresError', error instanceof Error ? error.message : String(error));
  }
  return () => {
    cluster?.stop();
    cluster = null;
  };
}
