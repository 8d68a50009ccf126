// Taking fold checkpoints of a running run next to its file journal (`.loop/.journal/checkpoint.json`).
import { createHash, type Hash } from 'node:crypto';
import { closeSync, fstatSync, openSync, renameSync, writeFileSync } from 'node:fs';
import { journalEntry } from '../../config/workspace-layout.js';
import { checkpointOf, type FoldCheckpoint } from '../fold/fold-checkpoint.js';
import type { RunFold } from '../fold/run-fold.js';
import { FileJournalStore } from '../journal/file/file-journal-store.js';
import type { JournalHead } from '../journal/journal-head.js';
import type { JournalWriter } from '../journal/journal-writer.js';
import { recordHash } from '../journal/record-chain.js';
import type { JournalRecord } from '../journal/record.js';
import { advanceLedger, indexAfter } from '../projections/checkpoint-ledger.js';
import { lastLine, readInto, type ReadFrom } from './checkpoint-file.js';

/** Records between two checkpoints of a run. */
export const CHECKPOINT_EVERY = 1000;

/**
 * Records between two checkpoints: `CHECKPOINT_EVERY`, or `YOKE_CHECKPOINT_EVERY` when it is a
 * positive integer (tests and drills that need checkpoints in runs of a few iterations).
 */
export function checkpointInterval(env: NodeJS.ProcessEnv): number {
  const every = Number(env.YOKE_CHECKPOINT_EVERY);
  return Number.isSafeInteger(every) && every > 0 ? every : CHECKPOINT_EVERY;
}

/**
 * Takes checkpoints of a run whose journal is the file at `journal`, saved to `path`. The sha256 of
 * the journal's bytes is carried forward from one checkpoint to the next (only the bytes appended
 * since are read), and so is the ledger (only the records since are looked at): from the checkpoint
 * the writer was read from (`from`), or from the start. `records` are the writer's records (every
 * record, or after `from` the checkpoint's kept records and every record after it). Not durable on
 * purpose: a checkpoint lost in a crash is a fold from the start.
 */
export class CheckpointTaker {
  private hashed: number;
  private readonly running: Hash;
  private last: FoldCheckpoint | null;

  constructor(readonly journal: string, readonly path: string, private readonly records: () => readonly JournalRecord[], from: ReadFrom | null = null) {
    this.hashed = from?.checkpoint.bytes ?? 0;
    this.running = from?.hash.copy() ?? createHash('sha256');
    this.last = from?.checkpoint ?? null;
  }

  /**
   * Save `fold` (every record up to `head` applied, all of them stored) as the checkpoint; returns
   * its digest for the `checkpoint` record that vouches for it, or null when the stored journal does
   * not end at `head` (someone else's bytes: no checkpoint).
   */
  take(fold: RunFold, head: JournalHead): string | null {
    const fd = openSync(this.journal, 'r');
    let bytes: number;
    let last: Buffer;
    try {
      bytes = fstatSync(fd).size;
      if (bytes < this.hashed) return null;
      const fresh = Buffer.allocUnsafe(bytes - this.hashed);
      if (!readInto(fd, fresh, this.hashed)) return null;
      this.running.update(fresh);
      this.hashed = bytes;
      last = lastLine(fd, bytes);
    } finally {
      closeSync(fd);
    }
    if (recordHash(last.toString('utf8')) !== head.hash) return null;
    const all = this.records();
    const since = this.last === null ? all : [...this.last.ledger.kept, ...all.slice(indexAfter(all, this.last.upTo))];
    const ledger = advanceLedger(this.last, since, fold.run, head.seq);
    const checkpoint = checkpointOf(fold, head, bytes, this.running.copy().digest('hex'), ledger);
    const temporary = `${this.path}.${process.pid}`;
    writeFileSync(temporary, JSON.stringify(checkpoint));
    renameSync(temporary, this.path);
    this.last = checkpoint;
    return checkpoint.digest;
  }
}

/** What takes a running run's checkpoints (the runner's `checkpoints` option). */
export interface RunCheckpoints {
  every: number;
  take(fold: RunFold, head: JournalHead): string | null;
}

/**
 * The checkpoints of the run `journal` writes, for backends with a journal file (null: PostgreSQL).
 * `from`: the checkpoint the writer's records start after, when it was read from one.
 */
export function runCheckpoints(journal: JournalWriter, loopDir: string, from: ReadFrom | null): RunCheckpoints | null {
  if (!(journal.store instanceof FileJournalStore)) return null;
  const taker = new CheckpointTaker(journal.store.location, journalEntry(loopDir, 'checkpoint'), () => journal.records, from);
  return { every: checkpointInterval(process.env), take: (fold, head) => taker.take(fold, head) };
}
