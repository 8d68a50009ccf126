// `yoke queue add`: one job per workspace in the fleet's queue (pg-boss, stately: one job per state and workspace).
import { randomUUID } from 'node:crypto';
import { withClient } from '../journal/postgres/store-pool.js';
import { assertStoreReady } from '../journal/postgres/store-schema.js';
import { closeBoss, JOB_QUEUE, openBoss, type JobData } from './fleet-queue.js';
import { journalLength } from './journal-position.js';
import { withoutCredentials } from './repository-url.js';

/** What `queue add` did: the job queued, or the one already waiting for that workspace; the repository as stored. */
export type Enqueued = ({ queued: true; job: string } | { queued: false; job: string | null; state: string | null }) & {
  workspace: string;
  repository: string;
  /** the URL held a user name or password, which was not stored (the worker clones with its own credentials) */
  credentialsRemoved: boolean;
};

/**
 * Queue `given` (its run: the first one started in the workspace after now), its URL without
 * credentials: neither yoke_job nor pg-boss's job data ever holds them. pg-boss's stately policy
 * keeps one job per state and workspace (singletonKey): a workspace that already has a job not
 * started yet (`created`) gets no second one; one whose job is active or waiting to retry may get
 * one queued behind it, which runs after it.
 */
export async function enqueueJob(url: string, given: JobData): Promise<Enqueued> {
  await assertStoreReady(url);
  const { repository, credentialsRemoved } = withoutCredentials(given.repository);
  const data: JobData = { ...given, repository };
  const shown = { workspace: data.workspace, repository, credentialsRemoved };
  const id = randomUUID();
  await withClient(url, async (client) => {
    const afterSeq = await journalLength(client, data.workspace);
    await client.query('INSERT INTO yoke_job (job, workspace, repository, ref, mode, after_seq) VALUES ($1, $2, $3, $4, $5, $6)', [id, data.workspace, data.repository, data.ref, data.mode, afterSeq]);
  });
  const boss = await openBoss(url, { supervise: false });
  try {
    const sent = await boss.send(JOB_QUEUE, data, { id, singletonKey: data.workspace });
    if (sent !== null) return { queued: true, job: sent, ...shown };
  } finally {
    await closeBoss(boss);
  }
  return withClient(url, async (client) => {
    await client.query('DELETE FROM yoke_job WHERE job = $1', [id]);
    const { rows } = await client.query<{ id: string; state: string }>(
      "SELECT id::text AS id, state::text AS state FROM pgboss.job WHERE name = $1 AND singleton_key = $2 AND state < 'completed' ORDER BY created_on LIMIT 1",
      [JOB_QUEUE, data.workspace],
    );
    return { queued: false, job: rows[0]?.id ?? null, state: rows[0]?.state ?? null, ...shown };
  });
}
