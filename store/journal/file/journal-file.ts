// Reading and validating a journal file: JSON Lines, a hash chain, consecutive sequence numbers.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { JournalLineReader } from './journal-lines.js';
import { checkRecord, GENESIS_HASH, type JournalRecord } from '../record.js';
import { YokeError } from '../../../errors/yoke-error.js';

/** sha256 hex of one journal line (without its newline): the next record's `prev`. */
export function hashLine(line: string): string {
  return createHash('sha256').update(line).digest('hex');
}

/** A journal read from disk, with where a torn tail (if any) starts. */
export interface JournalContents {
  records: JournalRecord[];
  /** hash of the last valid line (GENESIS_HASH for an empty journal) */
  lastHash: string;
  /** byte length of the valid prefix (everything up to and including the last newline) */
  validBytes: number;
  /** a partial last line left by a crash mid-write: its 1-based line number and byte length */
  torn: { line: number; bytes: number } | null;
}

/**
 * Parse and verify a whole journal. A final line without its newline is reported as `torn`
 * (a crash mid-append); any other malformed, out-of-order or out-of-chain line throws a
 * `workspace` YokeError naming the line, because silently skipping it could re-run an effect.
 */
export function readJournalFile(path: string): JournalContents {
  let buffer: Buffer;
  try {
    buffer = readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { records: [], lastHash: GENESIS_HASH, validBytes: 0, torn: null };
    }
    throw error;
  }
  return parseJournal(buffer, path);
}

/** Parse journal bytes (exported for tests and benchmarks). */
export function parseJournal(buffer: Buffer, path: string): JournalContents {
  const records: JournalRecord[] = [];
  const chain = new JournalChain(path);
  let offset = 0;
  let lineNumber = 0;
  while (offset < buffer.length) {
    lineNumber += 1;
    const newline = buffer.indexOf(0x0a, offset);
    if (newline === -1) {
      return { records, lastHash: chain.lastHash, validBytes: offset, torn: { line: lineNumber, bytes: buffer.length - offset } };
    }
    records.push(chain.accept(buffer.toString('utf8', offset, newline), lineNumber));
    offset = newline + 1;
  }
  return { records, lastHash: chain.lastHash, validBytes: offset, torn: null };
}

/**
 * The checks every journal line passes, one line at a time: valid JSON, a valid record, the next
 * sequence number, and a `prev` equal to the hash of the line before. Throws a `workspace`
 * YokeError naming the line otherwise.
 */
export class JournalChain {
  lastHash = GENESIS_HASH;
  seq = 0;

  constructor(readonly path: string) {}

  /** Check line `lineNumber` (its text without the newline) and return its record. */
  accept(line: string, lineNumber: number): JournalRecord {
    const record = parseLine(line, this.path, lineNumber);
    const expectedSeq = this.seq + 1;
    if (record.seq !== expectedSeq) {
      throw refuse(this.path, lineNumber, `sequence number ${record.seq} where ${expectedSeq} was expected`);
    }
    if (record.prev !== this.lastHash) {
      throw refuse(this.path, lineNumber, 'its prev hash does not match the line before it (the chain is broken)');
    }
    this.seq = expectedSeq;
    this.lastHash = hashLine(line);
    return record;
  }
}

/**
 * A journal's records, checked like `readJournalFile` does but streamed: one record at a time,
 * the file read through a fixed-size buffer, nothing kept. After iterating, `torn` and
 * `validBytes` describe the tail as `readJournalFile` would. `limitBytes` stops at an earlier
 * length (e.g. where a first pass ended, while a live run keeps appending).
 */
export class JournalStream implements Iterable<JournalRecord> {
  private readonly lines: JournalLineReader;
  private chain: JournalChain;

  constructor(readonly path: string, limitBytes?: number, chunkBytes?: number) {
    this.lines = new JournalLineReader(path, limitBytes, chunkBytes);
    this.chain = new JournalChain(path);
  }

  get torn(): { line: number; bytes: number } | null {
    return this.lines.torn;
  }

  get validBytes(): number {
    return this.lines.validBytes;
  }

  get lastHash(): string {
    return this.chain.lastHash;
  }

  *[Symbol.iterator](): Iterator<JournalRecord> {
    const chain = new JournalChain(this.path);
    this.chain = chain;
    for (const line of this.lines) yield chain.accept(line.text, line.number);
  }
}

function parseLine(line: string, path: string, lineNumber: number): JournalRecord {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw refuse(path, lineNumber, 'it is not valid JSON');
  }
  const checked = checkRecord(value);
  if ('error' in checked) throw refuse(path, lineNumber, checked.error);
  return checked.record;
}

function refuse(path: string, line: number, why: string): YokeError {
  return new YokeError(
    'workspace',
    `${path}:${line}: the journal is corrupt or was edited: ${why}; restore it from a backup or start over with a new .loop/.journal (yoke never edits it for you).`,
  );
}
