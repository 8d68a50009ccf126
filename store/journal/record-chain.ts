// The hash chain every journal record is checked against: valid record, next seq, prev = hash of the one before.
import { createHash } from 'node:crypto';
import { checkRecord, GENESIS_HASH, type JournalRecord } from './record.js';
import { YokeError } from '../../errors/yoke-error.js';

/** sha256 hex of one journal line (without its newline): the next record's `prev`. */
export function hashLine(line: string): string {
  return createHash('sha256').update(line).digest('hex');
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
