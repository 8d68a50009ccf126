// Reading and validating a journal file: JSON Lines, a hash chain, consecutive sequence numbers.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { checkRecord, GENESIS_HASH, type JournalRecord } from './record.js';
import { YokeError } from './yoke-error.js';

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
  let lastHash = GENESIS_HASH;
  let offset = 0;
  let lineNumber = 0;
  while (offset < buffer.length) {
    lineNumber += 1;
    const newline = buffer.indexOf(0x0a, offset);
    if (newline === -1) {
      return { records, lastHash, validBytes: offset, torn: { line: lineNumber, bytes: buffer.length - offset } };
    }
    const line = buffer.toString('utf8', offset, newline);
    const record = parseLine(line, path, lineNumber);
    const expectedSeq = records.length + 1;
    if (record.seq !== expectedSeq) {
      throw refuse(path, lineNumber, `sequence number ${record.seq} where ${expectedSeq} was expected`);
    }
    if (record.prev !== lastHash) {
      throw refuse(path, lineNumber, 'its prev hash does not match the line before it (the chain is broken)');
    }
    records.push(record);
    lastHash = hashLine(line);
    offset = newline + 1;
  }
  return { records, lastHash, validBytes: offset, torn: null };
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
