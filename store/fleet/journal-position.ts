// Where a workspace's journal in the shared store says a job stands: its run, whether it finished, and what the checkout must be.
import type { PoolClient } from 'pg';

/** What a worker needs to know from the journal before it runs a job. */
export interface RunPosition {
  /** the workspace's unfinished run (null: none, a new one starts) */
  open: string | null;
  /** the unfinished run's last journaled commit (null: it has not committed yet) */
  lastCommit: string | null;
  /** the tree the unfinished run began on, and the ignored prefixes it hashed (its baseline) */
  baselineTree: string | null;
  ignoredUnder: string[];
  /** the unfinished run's spec backups (file name under .loop/ → blob hash) and the commit it began on */
  specBlobs: Record<string, string | null>;
  baselineHead: string | null;
  /** the job's run: the first run started after the job was queued (null: not started yet) */
  jobRun: string | null;
  /** how the job's run finished (null: it has not) */
  finished: { state: string; exitCode: number; reason: string } | null;
}

interface Row {
  seq: string;
  run: string | null;
  type: string;
  kind: string | null;
  payload: Record<string, unknown>;
}

/** Read the position of `workspace` for a job queued when its journal ended at `afterSeq`. */
export async function runPosition(client: PoolClient, workspace: string, afterSeq: number): Promise<RunPosition> {
  const { rows } = await client.query<Row>(
    `SELECT seq, record->>'run' AS run, record->>'type' AS type, record->'payload'->>'kind' AS kind, record->'payload' AS payload
       FROM yoke_journal
      WHERE workspace = $1
        AND (record->>'type' IN ('run.started', 'run.finished', 'run.abandoned')
          OR (record->>'type' IN ('effect.started', 'effect.completed') AND record->'payload'->>'kind' IN ('commit.create', 'baseline.capture')))
      ORDER BY seq`,
    [workspace],
  );
  const ended = new Set<string>();
  let latest: string | null = null;
  let jobRun: string | null = null;
  let finished: RunPosition['finished'] = null;
  for (const row of rows) {
    if (row.type === 'run.started' && row.run !== null) {
      latest = row.run;
      if (jobRun === null && Number(row.seq) > afterSeq) jobRun = row.run;
    }
    if ((row.type === 'run.finished' || row.type === 'run.abandoned') && row.run !== null) ended.add(row.run);
    if (row.type === 'run.finished' && row.run !== null && row.run === jobRun) finished = row.payload as RunPosition['finished'];
  }
  const open = latest !== null && !ended.has(latest) ? latest : null;
  let lastCommit: string | null = null;
  let baselineTree: string | null = null;
  let ignoredUnder: string[] = [];
  let specBlobs: Record<string, string | null> = {};
  let baselineHead: string | null = null;
  for (const row of rows) {
    if (open === null || row.run !== open) continue;
    if (row.type === 'effect.completed' && row.kind === 'commit.create') {
      const sha = (row.payload.result as { sha?: unknown } | null)?.sha;
      if (typeof sha === 'string') lastCommit = sha;
    }
    if (row.type === 'effect.started' && row.kind === 'baseline.capture' && baselineTree === null) {
      const under = (row.payload.params as { ignoredUnder?: unknown } | null)?.ignoredUnder;
      ignoredUnder = Array.isArray(under) ? under.filter((item): item is string => typeof item === 'string') : [];
    }
    if (row.type === 'effect.completed' && row.kind === 'baseline.capture' && baselineTree === null) {
      const result = row.payload.result as { tree?: unknown; specFiles?: unknown; head?: { sha?: unknown } | null } | null;
      if (typeof result?.tree === 'string') baselineTree = result.tree;
      if (result?.specFiles !== null && typeof result?.specFiles === 'object') specBlobs = result.specFiles as Record<string, string | null>;
      if (typeof result?.head?.sha === 'string') baselineHead = result.head.sha;
    }
  }
  return { open, lastCommit, baselineTree, ignoredUnder, specBlobs, baselineHead, jobRun, finished };
}

/** The workspace's journal length now (0: no journal yet): a job queued now owns the first run after it. */
export async function journalLength(client: PoolClient, workspace: string): Promise<number> {
  const { rows } = await client.query<{ n: string | null }>('SELECT max(seq) AS n FROM yoke_journal WHERE workspace = $1', [workspace]);
  return Number(rows[0]?.n ?? 0);
}
