// Where a workspace's journal in the shared store says a job stands: its run, whether it finished, and what the checkout must be.
import type { PoolClient } from 'pg';
import { sharedJournalReader } from '../session/open-reader.js';
import { readJournal } from '../journal/read-journal.js';
import type { JournalRecord } from '../journal/record.js';

/** What a worker needs to know from the journal before it runs a job. */
export interface RunPosition {
  /** the workspace's unfinished run (null: none, a new one starts) */
  open: string | null;
  /** the unfinished run's last commit on its branch (null: it has not committed yet) */
  lastCommit: string | null;
  /** every commit the unfinished run journaled on its branch, oldest first */
  commits: string[];
  /** the tree the unfinished run began on, and the ignored prefixes it hashed (its baseline) */
  baselineTree: string | null;
  ignoredUnder: string[];
  /** the commit the unfinished run began on */
  baselineHead: string | null;
  /** the spec backups the unfinished run restores from now on: file name under .loop/ → blob hash (the latest one journaled per file) */
  specFiles: Record<string, string | null>;
  /** every blob hash the unfinished run's records name (spec backups, displaced content, protected files, …) */
  blobs: string[];
  /** the unfinished run's mode and `commit` setting as journaled when it started (null: not recorded) */
  mode: string | null;
  commitSetting: string | null;
  /** agent calls the unfinished run completed */
  agentCalls: number;
  /** parallel stories: the stories whose lane worktree the unfinished run made and has not removed */
  openLanes: string[];
  /** the job's run: the first run started after the job was queued (null: not started yet) */
  jobRun: string | null;
  /** how the job's run finished (null: it has not) */
  finished: { state: string; exitCode: number; reason: string } | null;
  /** the journal's length when it was read */
  length: number;
}

/**
 * The effects that commit onto the run's own branch in the main working tree, each journaling the
 * commit as `result.sha`. A lane's `candidate.commit` is not one of them: it commits on the lane's
 * branch, and reaches the run's branch only when `story.land` fast-forwards to it.
 */
const BRANCH_COMMITS: ReadonlySet<string> = new Set(['commit.create', 'story.pass', 'story.land']);

const BLOB_HASH = /^[0-9a-f]{64}$/;

/**
 * Read the position of `workspace` for a job queued when its journal ended at `afterSeq`. The
 * journal is read as every yoke command reads it (each record checked against the hash chain, from
 * its stored text), never from the `record` jsonb column, which nothing checks: a damaged journal
 * is refused here (a `workspace` YokeError naming the record) before anything runs.
 */
export async function readRunPosition(url: string, workspace: string, afterSeq: number): Promise<RunPosition> {
  const { records } = await readJournal(sharedJournalReader(url, workspace));
  return positionOf(records, afterSeq);
}

/** The position the checked `records` describe, for a job queued when the journal ended at `afterSeq`. */
export function positionOf(records: readonly JournalRecord[], afterSeq: number): RunPosition {
  const ended = new Set<string>();
  let latest: string | null = null;
  let jobRun: string | null = null;
  for (const record of records) {
    if (record.run === null) continue;
    if (record.type === 'run.started') {
      latest = record.run;
      if (jobRun === null && record.seq > afterSeq) jobRun = record.run;
    }
    if (record.type === 'run.finished' || record.type === 'run.abandoned') ended.add(record.run);
  }
  const finishedRecord = records.find((record) => record.type === 'run.finished' && record.run === jobRun);
  const finished = finishedRecord?.type === 'run.finished' ? { state: finishedRecord.payload.state, exitCode: finishedRecord.payload.exitCode, reason: finishedRecord.payload.reason } : null;
  const open = latest !== null && !ended.has(latest) ? latest : null;
  const position: RunPosition = {
    open, lastCommit: null, commits: [], baselineTree: null, ignoredUnder: [], baselineHead: null, specFiles: {}, blobs: [],
    mode: null, commitSetting: null, agentCalls: 0, openLanes: [], jobRun, finished, length: records.at(-1)?.seq ?? 0,
  };
  if (open === null) return position;
  const blobs = new Set<string>();
  const lanes = new Set<string>();
  const removals = new Map<string, string>();
  let baselineSeen = false;
  for (const record of records) {
    if (record.run !== open) continue;
    collectHashes(record.payload, blobs);
    if (record.type === 'effect.started' && (record.payload.kind === 'worktree.create' || record.payload.kind === 'worktree.remove')) {
      const story = (record.payload.params as { story?: unknown } | null)?.story;
      if (typeof story === 'string' && record.payload.kind === 'worktree.create') lanes.add(story);
      if (typeof story === 'string' && record.payload.kind === 'worktree.remove') removals.set(record.payload.key, story);
    }
    if (record.type === 'run.started') {
      position.mode = record.payload.mode;
      position.commitSetting = commitSettingOf(record.payload.input);
    }
    if (record.type === 'event') noteSpecFiles(position, record.payload.event);
    if (record.type === 'effect.started' && record.payload.kind === 'baseline.capture' && !baselineSeen) {
      const under = (record.payload.params as { ignoredUnder?: unknown } | null)?.ignoredUnder;
      position.ignoredUnder = Array.isArray(under) ? under.filter((item): item is string => typeof item === 'string') : [];
    }
    if (record.type !== 'effect.completed') continue;
    const { kind } = record.payload;
    const result = record.payload.result as Record<string, unknown> | null;
    if (kind === 'agent.spawn') position.agentCalls += 1;
    if (kind === 'worktree.remove' && (result as { removed?: unknown } | null)?.removed === true) lanes.delete(removals.get(record.payload.key) ?? '');
    if (BRANCH_COMMITS.has(kind) && typeof result?.sha === 'string') {
      position.lastCommit = result.sha;
      position.commits.push(result.sha);
    }
    if ((kind === 'story.pass' || kind === 'story.land') && typeof result?.prdBlob === 'string') position.specFiles['prd.yaml'] = result.prdBlob;
    if (kind === 'baseline.capture') {
      const captured = result as { tree?: unknown; specFiles?: unknown; head?: { sha?: unknown } | null } | null;
      if (captured?.specFiles !== null && typeof captured?.specFiles === 'object') Object.assign(position.specFiles, captured.specFiles);
      if (!baselineSeen) {
        baselineSeen = true;
        if (typeof captured?.tree === 'string') position.baselineTree = captured.tree;
        if (typeof captured?.head?.sha === 'string') position.baselineHead = captured.head.sha;
      }
    }
  }
  position.blobs = [...blobs];
  position.openLanes = [...lanes];
  return position;
}

/** A `STORIES_CHANGED` input (the user edited prd.yaml between runs) makes its blob the backup restored from then on. */
function noteSpecFiles(position: RunPosition, event: { type: string } & Record<string, unknown>): void {
  if (event.type === 'STORIES_CHANGED' && typeof event.prdBlob === 'string') position.specFiles['prd.yaml'] = event.prdBlob;
}

function commitSettingOf(input: unknown): string | null {
  const commit = (input as { config?: { commit?: unknown } } | null)?.config?.commit;
  return typeof commit === 'string' ? commit : null;
}

/** Every sha256-looking string value anywhere inside `value`. */
function collectHashes(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') {
    if (BLOB_HASH.test(value)) into.add(value);
  } else if (Array.isArray(value)) {
    for (const item of value) collectHashes(item, into);
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) collectHashes(item, into);
  }
}

/** The workspace's journal length now (0: no journal yet): a job queued now owns the first run after it. */
export async function journalLength(client: PoolClient, workspace: string): Promise<number> {
  const { rows } = await client.query<{ n: string | null }>('SELECT max(seq) AS n FROM yoke_journal WHERE workspace = $1', [workspace]);
  return Number(rows[0]?.n ?? 0);
}

/**
 * How many effects the workspace's journal records as completed: a progress counter only (two
 * refused attempts with the same count made no progress), so it may count from the unchecked
 * `record` column.
 */
export async function completedEffects(client: PoolClient, workspace: string): Promise<number> {
  const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM yoke_journal WHERE workspace = $1 AND record->>'type' = 'effect.completed'", [workspace]);
  return Number(rows[0]?.n ?? 0);
}
