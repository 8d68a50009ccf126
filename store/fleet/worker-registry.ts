// The fleet's worker rows (yoke_worker): registered, beating, stopped, and found dead by any other worker.
import type { PoolClient } from 'pg';

/** A worker as it registers itself. */
export interface WorkerIdentity {
  id: string;
  host: string;
  pid: number;
  concurrency: number;
}

/** Register (or re-register) `worker` as running, its heartbeat valid for `ttlMs`. */
export async function registerWorker(client: PoolClient, worker: WorkerIdentity, ttlMs: number): Promise<void> {
  await client.query(
    `INSERT INTO yoke_worker (id, host, pid, concurrency, started_at, heartbeat_at, expires_at, state)
     VALUES ($1, $2, $3, $4, now(), now(), now() + $5 * interval '1 millisecond', 'running')
     ON CONFLICT (id) DO UPDATE SET heartbeat_at = now(), expires_at = EXCLUDED.expires_at, state = 'running'`,
    [worker.id, worker.host, worker.pid, worker.concurrency, ttlMs],
  );
}

/** Renew the worker's heartbeat; false when it was already declared dead (its jobs were handed back). */
export async function beat(client: PoolClient, id: string, ttlMs: number): Promise<boolean> {
  const { rowCount } = await client.query(
    "UPDATE yoke_worker SET heartbeat_at = now(), expires_at = now() + $2 * interval '1 millisecond' WHERE id = $1 AND state = 'running'",
    [id, ttlMs],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * Declare every running worker whose heartbeat expired (by the server's clock) dead, and take its
 * claims away in the same transaction: the jobs to hand back to the queue. Two workers reaping at
 * once: the row lock makes the second find nothing.
 */
export async function reapDeadWorkers(client: PoolClient, self: string): Promise<Array<{ job: string; worker: string; host: string; pid: number }>> {
  await client.query('BEGIN');
  try {
    const dead = await client.query<{ id: string; host: string; pid: number }>(
      "UPDATE yoke_worker SET state = 'dead' WHERE state = 'running' AND expires_at < now() AND id <> $1 RETURNING id, host, pid",
      [self],
    );
    const ids = dead.rows.map((row) => row.id);
    const claims = ids.length === 0 ? [] : (await client.query<{ job: string; worker: string }>('DELETE FROM yoke_job_claim WHERE worker = ANY($1) RETURNING job, worker', [ids])).rows;
    await client.query('COMMIT');
    return claims.map((claim) => {
      const worker = dead.rows.find((row) => row.id === claim.worker);
      return { ...claim, host: worker?.host ?? '?', pid: worker?.pid ?? 0 };
    });
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** Mark the worker stopped (a clean stop: its claims were let go already). */
export async function stopWorker(client: PoolClient, id: string): Promise<void> {
  await client.query("UPDATE yoke_worker SET state = 'stopped', heartbeat_at = now() WHERE id = $1", [id]);
}

/** Claim `job` for `worker` (the job is active in pg-boss; this says who has it). */
export async function claimJob(client: PoolClient, job: string, worker: string, workspace: string): Promise<void> {
  await client.query('INSERT INTO yoke_job_claim (job, worker, workspace) VALUES ($1, $2, $3) ON CONFLICT (job) DO UPDATE SET worker = EXCLUDED.worker, claimed_at = now()', [job, worker, workspace]);
}

/** Let go of `job`: false when it was no longer ours (a reaper handed it back meanwhile). */
export async function releaseJob(client: PoolClient, job: string, worker: string): Promise<boolean> {
  const { rowCount } = await client.query('DELETE FROM yoke_job_claim WHERE job = $1 AND worker = $2', [job, worker]);
  return (rowCount ?? 0) > 0;
}
