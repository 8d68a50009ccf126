// Folding the run `yoke run` builds on, checked as `yoke replay --verify` checks it (issue 20, item 3).
//
// The record chain is an unkeyed hash: anyone can rewrite a record and recompute the chain, and
// every structural check still passes. What such a forgery cannot do is agree with today's
// machine: a flipped guard result no longer matches the event the machine was told, a changed
// `run.finished` no longer matches the final state the fold reaches. So the run a new `yoke run`
// resumes (or starts after) is folded with every record checked against the fold before it, and
// the first disagreement refuses the workspace. Only that one run is checked: everything before its
// `run.started` belongs to runs nothing builds on, and the check costs about one more comparison
// per record of the fold `yoke run` does anyway.
import { YokeError } from '../../errors/yoke-error.js';
import { lifecycleOf } from '../fold/journal-runs.js';
import { restoreFold, trustedCheckpoint, type FoldCheckpoint } from '../fold/fold-checkpoint.js';
import { indexAfter } from '../projections/checkpoint-ledger.js';
import { RunFold } from '../fold/run-fold.js';
import type { JournalRecord, StartedRecord } from '../journal/record.js';
import { checkRecord, type Divergence } from '../projections/check-record.js';

/** Where a record is, for messages (`/p/.loop/.journal/journal.jsonl:57`). */
export type LocateRecord = (seq: number) => string;

/**
 * Fold every record of the run `started` (as `foldRun` does), refusing with a `workspace`
 * YokeError at the first record that contradicts the fold of the records before it: an effect
 * today's machine does not owe, an event that is not its effect's journaled outcome, a
 * `run.finished` the machine does not reach.
 *
 * With a `checkpoint` the journal vouches for (store/fold/fold-checkpoint.ts), the fold starts from
 * it and only the records after it are folded and checked (they were checked, as the journal's
 * records after the checkpoint, when it was taken); any other checkpoint is ignored. `readFrom`:
 * `records` were read from the checkpoint after that record (before it, only what it kept), so it
 * must be the one used.
 */
export function foldCheckedRun(records: readonly JournalRecord[], started: StartedRecord, locate: LocateRecord, checkpoint: FoldCheckpoint | null = null, readFrom: number | null = null): RunFold {
  const trusted = trustedCheckpoint(checkpoint, records, started);
  if (readFrom !== null && trusted?.upTo !== readFrom) throw new Error(`the journal was read from the checkpoint after record ${readFrom}, but that checkpoint is not the run's to fold from`);
  const fold = trusted ? restoreFold(trusted) : new RunFold(lifecycleOf(started).machine, started);
  const startedKeys = new Set<string>();
  for (const status of trusted?.fold.open ?? []) if (status.attempts > 0) startedKeys.add(status.request.key);
  const from = trusted ? indexAfter(records, trusted.upTo) : 0;
  for (let index = from; index < records.length; index += 1) {
    const record = records[index] as JournalRecord;
    if (record.seq <= started.seq || record.run !== started.run) continue;
    const divergence = checkRecord(fold, record, startedKeys);
    if (divergence) throw forged(divergence, started, locate);
    try {
      fold.apply(record, true);
    } catch (error) {
      if (!(error instanceof YokeError)) throw error;
      throw forged({ seq: record.seq, record: record.type, key: null, what: error.message, path: null, journal: null, machine: null }, started, locate, error.message);
    }
    if (record.type === 'effect.started') startedKeys.add(record.payload.key);
  }
  return fold;
}

/**
 * Check the last run of `records` when `yoke run` is about to start a new one after it (it finished
 * or was abandoned): a forged ending would otherwise be built on silently. A run recorded by a
 * machine version this yoke lacks is not checked (a new run does not fold it). The checked fold,
 * or null when there was nothing to check.
 */
export function checkLastRun(records: readonly JournalRecord[], locate: LocateRecord): RunFold | null {
  let last: StartedRecord | null = null;
  for (const record of records) if (record.type === 'run.started') last = record;
  if (last === null) return null;
  try {
    lifecycleOf(last);
  } catch (error) {
    if (error instanceof YokeError) return null;
    throw error;
  }
  return foldCheckedRun(records, last, locate);
}

function forged(divergence: Divergence, started: StartedRecord, locate: LocateRecord, foldMessage?: string): YokeError {
  const where = divergence.path === null ? '' : ` (first difference at ${divergence.path})`;
  const what = foldMessage ?? `record ${divergence.seq} (${divergence.record}) contradicts run ${started.run ?? '?'} as today's machine folds it: ${divergence.what}${where}`;
  return new YokeError(
    'workspace',
    `${locate(divergence.seq)}: ${what.replace(/; the journal was edited.*$/, '')}; the journal was changed after yoke wrote it (\`yoke replay --verify\` shows the difference). Put back a copy of the journal you trust (.loop/.journal/journal.jsonl, or the workspace's rows from a database backup), or leave this run behind deliberately with \`yoke run --fresh\`.`,
  );
}
