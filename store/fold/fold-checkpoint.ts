// A checkpoint of one run's fold: what `yoke run` resumes from, and `yoke status` folds from, instead
// of folding the whole run again.
//
// A checkpoint is a cache, never an authority. It names the record it was taken after (`upTo`), the
// chain hash there, the journal's length and sha256 up to there, the fold (RunFold.state()) and the
// ledger (what the records before it still tell: store/projections/checkpoint-ledger.ts); its
// digest covers all of it. It is trusted only when the journal itself vouches for it: a `checkpoint`
// record of the same run, after `upTo`, carrying the same digest. The journal's records are chained,
// so forging a checkpoint that is trusted means forging the journal's records after it as well — the
// same as forging the journal, which the tamper check and `--verify` are there for. A stale
// checkpoint (another run, another journal, a journal cut short or edited before `upTo`) does not
// match and is ignored: the run is folded from its start, as without one.
import { createHash } from 'node:crypto';
import type { JournalHead } from '../journal/journal-head.js';
import type { JournalRecord, StartedRecord } from '../journal/record.js';
import { indexAfter, type CheckpointLedger } from '../projections/checkpoint-ledger.js';
import { lifecycleOf } from './journal-runs.js';
import { RunFold, canonical, type FoldState } from './run-fold.js';

/**
 * The checkpoint format's version (a checkpoint of another format is not intact: the run is folded
 * from its start). 3: the ledger tallies the held lanes, which a format-2 checkpoint does not.
 */
export const CHECKPOINT_FORMAT = 3;

/** A saved fold of one run after record `upTo`. */
export interface FoldCheckpoint {
  format: typeof CHECKPOINT_FORMAT;
  /** the run's `run.started` record (its input is what the machine is built from) */
  started: StartedRecord;
  /** the last record folded */
  upTo: number;
  /** the chain hash after record `upTo` (record `upTo + 1`'s `prev`) */
  hash: string;
  /** bytes of the stored journal up to and including record `upTo` (file backend) */
  bytes: number;
  /** sha256 hex of those bytes */
  prefix: string;
  fold: FoldState;
  /** the records before `upTo` projections may still ask about, and the run's tallies there */
  ledger: CheckpointLedger;
  /** sha256 hex of everything above (canonical JSON) */
  digest: string;
}

/** The checkpoint of `fold` after record `head.seq`, the stored journal being `bytes` long with sha256 `prefix` there. */
export function checkpointOf(fold: RunFold, head: JournalHead, bytes: number, prefix: string, ledger: CheckpointLedger): FoldCheckpoint {
  const body = { format: CHECKPOINT_FORMAT, started: fold.started, upTo: head.seq, hash: head.hash, bytes, prefix, fold: fold.state(), ledger } as const;
  return { ...body, digest: checkpointDigest(body) };
}

/** sha256 hex of a checkpoint without its digest. */
export function checkpointDigest(checkpoint: Omit<FoldCheckpoint, 'digest'>): string {
  const { format, started, upTo, hash, bytes, prefix, fold, ledger } = checkpoint;
  return createHash('sha256').update(canonical({ format, started, upTo, hash, bytes, prefix, fold, ledger })).digest('hex');
}

/** Is `value` shaped like a checkpoint whose digest matches its content (not yet: vouched for by a journal)? */
export function intactCheckpoint(value: unknown): value is FoldCheckpoint {
  if (value === null || typeof value !== 'object') return false;
  const checkpoint = value as Partial<FoldCheckpoint>;
  if (checkpoint.format !== CHECKPOINT_FORMAT || typeof checkpoint.digest !== 'string') return false;
  if (typeof checkpoint.upTo !== 'number' || typeof checkpoint.hash !== 'string' || typeof checkpoint.bytes !== 'number' || typeof checkpoint.prefix !== 'string') return false;
  if (checkpoint.started?.type !== 'run.started' || checkpoint.fold === undefined || !Array.isArray(checkpoint.fold.open)) return false;
  if (checkpoint.ledger === undefined || !Array.isArray(checkpoint.ledger.kept) || typeof checkpoint.ledger.run !== 'object') return false;
  return checkpointDigest(checkpoint as FoldCheckpoint) === checkpoint.digest;
}

/** Does `record` vouch for `checkpoint` (a `checkpoint` record of its run, after it, with its digest)? */
export function vouchesFor(record: JournalRecord, checkpoint: FoldCheckpoint): boolean {
  return record.type === 'checkpoint' && record.run === checkpoint.started.run && record.seq > checkpoint.upTo
    && record.payload.upTo === checkpoint.upTo && record.payload.digest === checkpoint.digest;
}

/**
 * `checkpoint`, when it may stand in for folding `records` (every one checked, chain included) up
 * to its `upTo`: same run and start, the chain hash after `upTo` the checkpoint's, and a later
 * record vouching for it. Null otherwise (fold from the start). `records` may be every record, or
 * (a read from this checkpoint) its kept records and then every record after it.
 */
export function trustedCheckpoint(checkpoint: FoldCheckpoint | null, records: readonly JournalRecord[], started: StartedRecord): FoldCheckpoint | null {
  if (checkpoint === null || !intactCheckpoint(checkpoint)) return null;
  if (checkpoint.started.seq !== started.seq || checkpoint.started.run !== started.run || canonical(checkpoint.started) !== canonical(started)) return null;
  const from = indexAfter(records, checkpoint.upTo);
  const next = records[from];
  if (next === undefined || next.seq !== checkpoint.upTo + 1 || next.prev !== checkpoint.hash) return null;
  for (let index = from; index < records.length; index += 1) {
    const record = records[index];
    if (record !== undefined && vouchesFor(record, checkpoint)) return checkpoint;
  }
  return null;
}


/** The fold a trusted checkpoint saved, live again (the machine of the run's recorded lifecycle). */
export function restoreFold(checkpoint: FoldCheckpoint): RunFold {
  return new RunFold(lifecycleOf(checkpoint.started).machine, checkpoint.started, undefined, undefined, checkpoint.fold);
}

/**
 * The checkpoint's run folded on from a trusted checkpoint over the records of `records` after it
 * (`foldRun` from there: every record, or a read from the checkpoint).
 */
export function foldFrom(checkpoint: FoldCheckpoint, records: readonly JournalRecord[]): RunFold {
  const fold = restoreFold(checkpoint);
  for (let index = indexAfter(records, checkpoint.upTo); index < records.length; index += 1) {
    const record = records[index] as JournalRecord;
    if (record.run === checkpoint.started.run) fold.apply(record);
  }
  return fold;
}
