// `yoke fleet`: the shared view of every worker, job and run in the store (DESIGN §14).
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { foldRun, runStarts } from '../fold/journal-runs.js';
import { withClient } from '../journal/postgres/store-pool.js';
import { assertStoreReady } from '../journal/postgres/store-schema.js';
import type { JournalReader } from '../journal/journal-store.js';
import { readJournal } from '../journal/read-journal.js';
import { sharedJournalReader } from '../session/open-reader.js';
import { summarizeRun, summarizeUnfoldable, type RunSummary } from '../projections/run-summary.js';
import { readLedger, totalUsage } from '../projections/usage-ledger.js';
import { YokeError } from '../../errors/yoke-error.js';
import { redactStoreUrl } from '../journal/postgres/store-url.js';
import { DEAD_LETTER_QUEUE, JOB_QUEUE } from './fleet-queue.js';
import { readCachedRows, writeCachedRows } from './fleet-run-cache.js';

/** A worker row, with how long ago it beat (by the server's clock). */
export interface FleetWorkerRow {
  id: string;
  host: string;
  pid: number;
  concurrency: number;
  /** running (beating), stopped (cleanly), dead (stopped beating), or lapsing (running, heartbeat expired, not reaped yet) */
  state: string;
  heartbeatAgeMs: number;
  startedAt: string;
  jobs: string[];
}

/** A job of the queue or of the dead-letter queue. */
export interface FleetJobRow {
  id: string;
  queue: 'jobs' | 'dead-letter';
  workspace: string;
  state: string;
  attempts: number;
  worker: string | null;
  createdAt: string;
  /** why it failed, for a failed or dead-lettered job; the run's outcome for a completed one */
  output: unknown;
}

/** A run of a workspace, as `yoke runs` shows it, with its cost. */
export interface FleetRunRow {
  workspace: string;
  run: string;
  status: RunSummary['status'];
  state: string;
  iteration: number | null;
  maxIterations: number | null;
  exitCode: number | null;
  agentCalls: number;
  /** known cost in US dollars (a lower bound when some call reported none) */
  costUsd: number;
}

/** A workspace whose journal cannot be read (a record edited in the table, say): the refusal, as `yoke runs --workspace` would say it. */
export interface UnreadableWorkspace {
  workspace: string;
  reason: string;
}

/** Everything `yoke fleet` shows. */
export interface FleetView {
  workers: FleetWorkerRow[];
  jobs: FleetJobRow[];
  runs: FleetRunRow[];
  unreadable: UnreadableWorkspace[];
}

/**
 * Read the fleet view of the store at `url`. Each workspace's runs come from its journal, read and
 * folded, or from `cacheDir` when its stored head did not change since (fleet-run-cache.ts). A
 * workspace that cannot be read is listed in `unreadable` with the reason; the others are shown.
 */
export async function readFleetView(url: string, cacheDir: string | null = null): Promise<FleetView> {
  await assertStoreReady(url);
  const { workers, jobs, workspaces } = await withClient(url, async (client) => {
    const workerRows = await client.query<{ id: string; host: string; pid: number; concurrency: number; state: string; live: boolean; age: string; started_at: Date }>(
      `SELECT id, host, pid, concurrency, state, expires_at > now() AS live, (extract(epoch FROM now() - heartbeat_at) * 1000)::bigint AS age, started_at
         FROM yoke_worker ORDER BY started_at`,
    );
    const claims = await client.query<{ job: string; worker: string }>('SELECT job, worker FROM yoke_job_claim');
    const queued = await client.query<{ hasboss: boolean }>("SELECT to_regclass('pgboss.job') IS NOT NULL AS hasboss");
    const jobRows = queued.rows[0]?.hasboss === true
      ? (await client.query<{ id: string; name: string; state: string; retry_count: number; workspace: string | null; created_on: Date; output: unknown }>(
        `SELECT id::text AS id, name, state::text AS state, retry_count, COALESCE(singleton_key, data->>'workspace') AS workspace, created_on, output
           FROM pgboss.job WHERE name IN ($1, $2) ORDER BY created_on`,
        [JOB_QUEUE, DEAD_LETTER_QUEUE],
      )).rows
      : [];
    const names = await client.query<{ name: string }>('SELECT name FROM yoke_workspace ORDER BY name');
    return {
      workers: workerRows.rows.map((row): FleetWorkerRow => ({
        id: row.id, host: row.host, pid: row.pid, concurrency: row.concurrency,
        state: row.state === 'running' && !row.live ? 'lapsing' : row.state,
        heartbeatAgeMs: Number(row.age), startedAt: row.started_at.toISOString(),
        jobs: claims.rows.filter((claim) => claim.worker === row.id).map((claim) => claim.job),
      })),
      jobs: jobRows.map((row): FleetJobRow => ({
        id: row.id, queue: row.name === DEAD_LETTER_QUEUE ? 'dead-letter' : 'jobs', workspace: row.workspace ?? '?', state: row.state,
        attempts: row.name === DEAD_LETTER_QUEUE ? 0 : row.retry_count + (row.state === 'created' || row.state === 'retry' ? 0 : 1),
        worker: claims.rows.find((claim) => claim.job === row.id)?.worker ?? null,
        createdAt: row.created_on.toISOString(), output: row.output,
      })),
      workspaces: names.rows.map((row) => row.name),
    };
  });
  const runs: FleetRunRow[] = [];
  const unreadable: UnreadableWorkspace[] = [];
  const store = createHash('sha256').update(redactStoreUrl(url)).digest('hex').slice(0, 12);
  for (const workspace of workspaces) {
    try {
      const reader = sharedJournalReader(url, workspace);
      const head = await reader.head();
      const cachePath = cacheDir === null ? null : join(cacheDir, `${store}-${workspace}.json`);
      const cached = cachePath === null ? null : readCachedRows<FleetRunRow>(cachePath, head);
      const rows = cached ?? (await workspaceRuns(reader, workspace));
      if (cached === null && cachePath !== null) writeCachedRows(cachePath, head, rows);
      runs.push(...rows);
    } catch (error) {
      if (!(error instanceof YokeError)) throw error;
      unreadable.push({ workspace, reason: error.message });
    }
  }
  return { workers, jobs, runs, unreadable };
}

/** Every run of one workspace, as `yoke runs` folds it, with its known cost. */
async function workspaceRuns(reader: JournalReader, workspace: string): Promise<FleetRunRow[]> {
  const { records } = await readJournal(reader);
  const ledger = readLedger(records);
  const runs: FleetRunRow[] = [];
  for (const started of runStarts(records)) {
    let summary: RunSummary;
    try {
      summary = summarizeRun(foldRun(records, started), records);
    } catch (error) {
      if (!(error instanceof YokeError && error.code === 'workspace')) throw error;
      summary = summarizeUnfoldable(started, records);
    }
    const cost = totalUsage(ledger.filter((entry) => entry.run === summary.run && entry.status === 'completed')).knownCostUsd;
    runs.push({
      workspace, run: summary.run, status: summary.status, state: summary.state, iteration: summary.iteration,
      maxIterations: summary.maxIterations, exitCode: summary.exitCode, agentCalls: summary.agentCalls, costUsd: cost,
    });
  }
  return runs;
}
