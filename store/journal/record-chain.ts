// The hash chain every journal record is checked against: valid record, next seq, prev = hash of the one before.
// Sealing (text + hash) and checking happen here, identically for every backend.
import { hash } from 'node:crypto';
import { EMPTY_HEAD, GENESIS_HASH, type JournalHead } from './journal-head.js';
import type { SealedRecord } from './journal-store.js';
import { checkRecord, isHexDigest, type JournalRecord } from './record.js';
import { YokeError } from '../../errors/yoke-error.js';

/** sha256 hex of a record's stored text: the next record's `prev`. */
export function recordHash(text: string): string {
  // one-shot: a Hash object per record cost a third of the hashing when every line is checked
  return hash('sha256', text, 'hex');
}

/** The text a record is stored as (one JSON object, its keys in envelope order) and its hash. */
export function sealRecord(record: JournalRecord): SealedRecord {
  const text = JSON.stringify(record);
  return { record, text, hash: recordHash(text) };
}

/**
 * The checks every stored record passes, one at a time: valid JSON, a valid record, the next
 * sequence number, and a `prev` equal to the hash of the record before. Throws a `workspace`
 * YokeError naming the record (`locate(position)`: `journal.jsonl:12`, `seq 12 of workspace w`).
 */
export class JournalChain {
  lastHash = GENESIS_HASH;
  seq = 0;
  /** `lastHash` when it is known to be a sha256 hex digest (a start head is taken on trust only after a test) */
  private digest: string | undefined;

  /**
   * `start`: the head the checked records continue (the empty head for a read from the first record).
   * `remedy`: what the user can do about a refused record, worded for the backend that stores it.
   */
  constructor(
    private readonly locate: (position: number) => string,
    start: JournalHead = EMPTY_HEAD,
    private readonly remedy: string = FILE_JOURNAL_REMEDY,
  ) {
    this.lastHash = start.hash;
    this.seq = start.seq;
    this.digest = isHexDigest(start.hash) ? start.hash : undefined;
  }

  /** The head after the last accepted record. */
  get head(): JournalHead {
    return { seq: this.seq, hash: this.lastHash };
  }

  /** Check one stored record (its exact text) at `position` and return it. */
  accept(text: string, position: number): JournalRecord {
    const record = parseRecord(text, this.locate, position, this.digest, this.remedy);
    const expectedSeq = this.seq + 1;
    if (record.seq !== expectedSeq) {
      throw refuse(this.locate(position), `sequence number ${record.seq} where ${expectedSeq} was expected`, this.remedy);
    }
    if (record.prev !== this.lastHash) {
      throw refuse(this.locate(position), 'its prev hash does not match the record before it (the chain is broken)', this.remedy);
    }
    this.seq = expectedSeq;
    this.lastHash = recordHash(text);
    this.digest = this.lastHash;
    return record;
  }
}

/** What to do about a refused record of the file journal. */
export const FILE_JOURNAL_REMEDY = 'restore it from a backup or start over with a new .loop/.journal (yoke never edits it for you)';

/** What to do about a refused record of a PostgreSQL workspace: there is no `.loop/.journal` to replace. */
export const POSTGRES_JOURNAL_REMEDY = "restore the workspace's journal rows from a database backup, or start over under another workspace name (YOKE_WORKSPACE); yoke never edits the journal for you";

function parseRecord(text: string, locate: (position: number) => string, position: number, digest: string | undefined, remedy: string): JournalRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw refuse(locate(position), 'it is not valid JSON', remedy);
  }
  const checked = checkRecord(value, digest);
  if ('error' in checked) throw refuse(locate(position), checked.error, remedy);
  return checked.record;
}

function refuse(where: string, why: string, remedy: string): YokeError {
  return new YokeError('workspace', `${where}: the journal is corrupt or was edited: ${why}; ${remedy}.`);
}
