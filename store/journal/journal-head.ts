// Where a journal stands (the last record's seq and chain hash), and the error when it moved.
import { YokeError } from '../../errors/yoke-error.js';

/** `prev` of the first record in a journal. */
export const GENESIS_HASH = '0'.repeat(64);

/** The last record's seq and the hash of its stored text (seq 0 and GENESIS_HASH when empty). */
export interface JournalHead {
  readonly seq: number;
  readonly hash: string;
}

/** The head of an empty journal. */
export const EMPTY_HEAD: JournalHead = { seq: 0, hash: GENESIS_HASH };

/** Do two heads name the same journal position? */
export function sameHead(a: JournalHead, b: JournalHead): boolean {
  return a.seq === b.seq && a.hash === b.hash;
}

/**
 * The single-writer fence: an append was refused because the stored journal no longer ends where
 * the writer expected (another writer appended, or someone changed, replaced or removed it). Nothing
 * was written. A `workspace` error (exit 3).
 */
export class JournalHeadMoved extends YokeError {
  constructor(
    readonly location: string,
    readonly expected: JournalHead,
    /** what the store holds now, when it could tell */
    readonly actual: JournalHead | null,
  ) {
    const now = actual === null ? 'something yoke did not write' : `record ${actual.seq}`;
    super('workspace', `${location}: the journal moved under this yoke (it expected to append after record ${expected.seq}, but it now ends at ${now}); another writer or an edit changed it, so yoke wrote nothing. Inspect the journal, then run the command again.`);
    this.name = 'JournalHeadMoved';
  }
}
