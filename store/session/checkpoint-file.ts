// The fold checkpoint next to a file journal (`.loop/.journal/checkpoint.json`): loading it, and
// reading the journal from it without parsing the records before it (taking one: checkpoint-taker.ts).
import { createHash, type Hash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { foldFrom, intactCheckpoint, vouchesFor, type FoldCheckpoint } from '../fold/fold-checkpoint.js';
import type { RunFold } from '../fold/run-fold.js';
import { JournalLineReader } from '../journal/file/journal-lines.js';
import type { JournalHead } from '../journal/journal-head.js';
import type { JournalBase, JournalRead } from '../journal/read-journal.js';
import { JournalChain, recordHash } from '../journal/record-chain.js';
import type { JournalRecord } from '../journal/record.js';
import { indexAfter } from '../projections/checkpoint-ledger.js';
import { journalEntry } from '../../config/workspace-layout.js';

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

/** A read that starts after a checkpoint: the checkpoint, and the sha256 of the journal's bytes up to it (to carry on from). */
export interface ReadFrom {
  checkpoint: FoldCheckpoint;
  /** sha256 of the journal's first `checkpoint.bytes` bytes, not yet digested */
  hash: Hash;
}

/** What reading a file journal from a checkpoint read. */
export interface ForwardRead extends JournalRead, ReadFrom {
  /** the checkpoint's kept records, then every record after it (each checked: schema, seq, chain) */
  records: JournalRecord[];
  /** where the records before the checkpoint are only the kept ones; with `keepBytes`, the journal's bytes up to it */
  base: JournalBase;
}

/**
 * Read the file journal at `journal` from `checkpoint` on, without parsing the records before it:
 * the journal's first `bytes` bytes must hash to the checkpoint's `prefix` and end with the record
 * whose hash it names; the records after it are read and chain-checked from there (a torn tail is
 * reported, as a full read reports it), and one of them must vouch for it. Null when anything does
 * not match (then read every record). `keepBytes`: keep the bytes before the checkpoint in memory
 * (a writer puts them back if someone else rewrites the journal).
 */
export function readFromCheckpoint(journal: string, checkpoint: FoldCheckpoint, keepBytes = false): ForwardRead | null {
  let fd: number;
  try {
    fd = openSync(journal, 'r');
  } catch {
    return null;
  }
  const hash = createHash('sha256');
  let before: Buffer | null = null;
  try {
    if (fstatSync(fd).size < checkpoint.bytes) return null;
    if (keepBytes) {
      before = Buffer.allocUnsafe(checkpoint.bytes);
      if (!readInto(fd, before, 0)) return null;
      hash.update(before);
    } else {
      const chunk = Buffer.allocUnsafe(Math.min(1 << 22, checkpoint.bytes));
      for (let position = 0; position < checkpoint.bytes; position += chunk.length) {
        const part = chunk.subarray(0, Math.min(chunk.length, checkpoint.bytes - position));
        if (!readInto(fd, part, position)) return null;
        hash.update(part);
      }
    }
    if (hash.copy().digest('hex') !== checkpoint.prefix) return null;
    if (recordHash(lastLine(fd, checkpoint.bytes).toString('utf8')) !== checkpoint.hash) return null;
  } finally {
    closeSync(fd);
  }
  const chain = new JournalChain((line) => `${journal}:${line}`, { seq: checkpoint.upTo, hash: checkpoint.hash });
  const lines = new JournalLineReader(journal, Number.POSITIVE_INFINITY, 1 << 20, checkpoint.bytes, checkpoint.upTo);
  const records: JournalRecord[] = [...checkpoint.ledger.kept];
  let vouched = false;
  for (const line of lines) {
    const record = chain.accept(line.text, line.number);
    vouched ||= vouchesFor(record, checkpoint);
    records.push(record);
  }
  if (!vouched) return null;
  const torn = lines.torn === null ? null : { where: `${journal}:${lines.torn.line}`, offset: lines.validBytes, bytes: lines.torn.bytes };
  const head = chain.head;
  return { checkpoint, hash, records, head, torn, base: { head: { seq: checkpoint.upTo, hash: checkpoint.hash }, bytes: before } };
}

/**
 * Resume the checkpoint's run from the file journal at `journal` (see `readFromCheckpoint`): the
 * fold brought to the journal's end, and the records after the checkpoint. Null when the
 * checkpoint does not check out.
 */
export function resumeFromCheckpoint(journal: string, checkpoint: FoldCheckpoint): { fold: RunFold; records: JournalRecord[]; head: JournalHead } | null {
  const read = readFromCheckpoint(journal, checkpoint);
  if (read === null) return null;
  return { fold: foldFrom(checkpoint, read.records), records: read.records.slice(indexAfter(read.records, checkpoint.upTo)), head: read.head };
}

/** Fill `buffer` with the file's bytes from `position` on; false when the file ends first. */
export function readInto(fd: number, buffer: Buffer, position: number): boolean {
  for (let read = 0; read < buffer.length;) {
    const got = readSync(fd, buffer, read, buffer.length - read, position + read);
    if (got === 0) return false;
    read += got;
  }
  return true;
}

/** The bytes of the line that ends with the newline at `end - 1` (without it). */
export function lastLine(fd: number, end: number): Buffer {
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

/** The checkpoint saved next to the file journal of the workspace at `loopDir` (null: none, or not intact). */
export function savedCheckpoint(loopDir: string): FoldCheckpoint | null {
  return loadCheckpoint(journalEntry(loopDir, 'checkpoint'));
}
