// The fold checkpoint next to a file journal (`.loop/.journal/checkpoint.json`): taking one while a
// run goes, loading it, and resuming from it without reading the journal before it.
import { createHash, type Hash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { checkpointOf, intactCheckpoint, restoreFold, vouchesFor, type FoldCheckpoint } from '../fold/fold-checkpoint.js';
import type { RunFold } from '../fold/run-fold.js';
import { JournalLineReader } from '../journal/file/journal-lines.js';
import type { JournalHead } from '../journal/journal-head.js';
import { JournalChain, recordHash } from '../journal/record-chain.js';
import type { JournalRecord } from '../journal/record.js';
import { FileJournalStore } from '../journal/file/file-journal-store.js';
import type { JournalStore } from '../journal/journal-store.js';
import { journalEntry } from '../../config/workspace-layout.js';

/** Records between two checkpoints of a run. */
export const CHECKPOINT_EVERY = 5000;

/** The checkpoint saved at `path`, when it is one and its digest matches (whether a journal vouches for it is the reader's question). */
export function loadCheckpoint(path: string): FoldCheckpoint | null {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null; // absent or unreadable: a cache that is not there
  }
  return intactCheckpoint(value) ? value : null;
}

/**
 * Takes checkpoints of a run whose journal is the file at `journal`, saved to `path`. The sha256 of
 * the journal's bytes is carried forward from one checkpoint to the next (only the bytes appended
 * since are read). Not durable on purpose: a checkpoint lost in a crash is a fold from the start.
 */
export class CheckpointTaker {
  private hashed = 0;
  private readonly running: Hash = createHash('sha256');

  constructor(readonly journal: string, readonly path: string) {}

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
      let read = 0;
      while (read < fresh.length) {
        const got = readSync(fd, fresh, read, fresh.length - read, this.hashed + read);
        if (got === 0) return null;
        read += got;
      }
      this.running.update(fresh);
      this.hashed = bytes;
      last = lastLine(fd, bytes);
    } finally {
      closeSync(fd);
    }
    if (recordHash(last.toString('utf8')) !== head.hash) return null;
    const checkpoint = checkpointOf(fold, head, bytes, this.running.copy().digest('hex'));
    const temporary = `${this.path}.${process.pid}`;
    writeFileSync(temporary, JSON.stringify(checkpoint));
    renameSync(temporary, this.path);
    return checkpoint.digest;
  }
}

/** What resuming from a checkpoint read: the fold brought to the journal's end, and the records after the checkpoint. */
export interface ForwardRead {
  fold: RunFold;
  /** the records after the checkpoint, every one checked (schema, seq, chain) */
  records: JournalRecord[];
  head: JournalHead;
}

/**
 * Resume the checkpoint's run from the file journal at `journal` without parsing the records before
 * it: the journal's first `bytes` bytes must hash to the checkpoint's `prefix` and end with the
 * record whose hash it names; the records after it are read and chain-checked from there, and one
 * of them must vouch for it. Null when anything does not match (then read and fold everything).
 */
export function resumeFromCheckpoint(journal: string, checkpoint: FoldCheckpoint): ForwardRead | null {
  let fd: number;
  try {
    fd = openSync(journal, 'r');
  } catch {
    return null;
  }
  try {
    if (fstatSync(fd).size < checkpoint.bytes) return null;
    const hash = createHash('sha256');
    const chunk = Buffer.allocUnsafe(1 << 22);
    for (let position = 0; position < checkpoint.bytes;) {
      const got = readSync(fd, chunk, 0, Math.min(chunk.length, checkpoint.bytes - position), position);
      if (got === 0) return null;
      hash.update(chunk.subarray(0, got));
      position += got;
    }
    if (hash.digest('hex') !== checkpoint.prefix) return null;
    if (recordHash(lastLine(fd, checkpoint.bytes).toString('utf8')) !== checkpoint.hash) return null;
  } finally {
    closeSync(fd);
  }
  const chain = new JournalChain((line) => `${journal}:${line}`, { seq: checkpoint.upTo, hash: checkpoint.hash });
  const lines = new JournalLineReader(journal, Number.POSITIVE_INFINITY, 1 << 20, checkpoint.bytes, checkpoint.upTo);
  const records: JournalRecord[] = [];
  for (const line of lines) records.push(chain.accept(line.text, line.number));
  if (!records.some((record) => vouchesFor(record, checkpoint))) return null;
  const fold = restoreFold(checkpoint);
  for (const record of records) if (record.run === checkpoint.started.run) fold.apply(record);
  return { fold, records, head: chain.head };
}

/** The bytes of the line that ends with the newline at `end - 1` (without it). */
function lastLine(fd: number, end: number): Buffer {
  const parts: Buffer[] = [];
  for (let position = end - 1; position > 0;) {
    const size = Math.min(1 << 16, position);
    const block = Buffer.allocUnsafe(size);
    readSync(fd, block, 0, size, position - size);
    const newline = block.lastIndexOf(0x0a);
    if (newline !== -1) {
      parts.unshift(block.subarray(newline + 1));
      break;
    }
    parts.unshift(block);
    position -= size;
  }
  return Buffer.concat(parts);
}

/** A workspace's checkpoints: the one saved (null: none, or not intact) and what takes the next ones. */
export interface WorkspaceCheckpoints {
  saved: FoldCheckpoint | null;
  runner: { every: number; take(fold: RunFold, head: JournalHead): string | null };
}

/** The checkpoints of a workspace whose journal is `store`; null for backends without a journal file (PostgreSQL). */
export function workspaceCheckpoints(store: JournalStore, loopDir: string): WorkspaceCheckpoints | null {
  if (!(store instanceof FileJournalStore)) return null;
  const path = journalEntry(loopDir, 'checkpoint');
  const taker = new CheckpointTaker(store.location, path);
  return { saved: loadCheckpoint(path), runner: { every: CHECKPOINT_EVERY, take: (fold, head) => taker.take(fold, head) } };
}
