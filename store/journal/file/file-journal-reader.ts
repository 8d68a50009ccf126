// The file backend's reading side: one JSON Lines file per workspace (DESIGN §6), record N on line N.
import { EMPTY_HEAD } from '../journal-head.js';
import type { JournalReader, ReadRange, RecordPage, StoredHead } from '../journal-store.js';
import type { JournalRecord } from '../record.js';
import { environmentFault } from '../../../errors/environment-fault.js';
import { readFileTail } from './journal-tail.js';

/**
 * Records per page of a read. Small on purpose: a page's records stay alive until its reader has
 * folded them all, and with 1024 of them (11–23 MB of garbage made while folding them, as much as
 * V8's young generation holds) they outlived a scavenge or two and were copied, often into the old
 * generation, whose growth is most of `yoke replay`'s peak memory (docs/performance.md).
 */
const PAGE_RECORDS = 64;

/** Reads the journal file at `location`; never opens it for writing, never creates it. */
export class FileJournalReader implements JournalReader {
  readonly capabilities = { canTear: true };

  constructor(readonly location: string) {}

  recordLocation(seq: number): string {
    return `${this.location}:${seq}`;
  }

  head(): Promise<StoredHead> {
    return attempt(() => {
      const tail = readFileTail(this.location);
      return { ...tail.head, torn: tail.torn !== null, stamp: tail.stamp };
    }, this.location);
  }

  async *read(range: ReadRange = {}): AsyncGenerator<RecordPage> {
    try {
      yield* this.pages(range);
    } catch (error) {
      throw environmentFault(error, this.location) ?? error;
    }
  }

  private async *pages(range: ReadRange): AsyncGenerator<RecordPage> {
    // The reader and its schemas load only here: `yoke status` asks this store for its head alone.
    const { JournalStream } = await import('./journal-file.js');
    const from = range.fromSeq ?? 1;
    const to = range.toSeq ?? Number.POSITIVE_INFINITY;
    const stream = new JournalStream(this.location);
    let page: JournalRecord[] = [];
    let head = EMPTY_HEAD;
    let complete = true;
    for (const record of stream) {
      head = { seq: record.seq, hash: stream.lastHash };
      if (record.seq >= from) page.push(record);
      if (record.seq >= to) {
        complete = false; // stopped early: what comes after is not this read's business
        break;
      }
      if (page.length === PAGE_RECORDS) {
        yield { records: page, head, torn: null };
        page = [];
      }
    }
    const torn = complete && stream.torn ? { where: `${this.location}:${stream.torn.line}`, offset: stream.validBytes, bytes: stream.torn.bytes } : null;
    yield { records: page, head, torn };
  }
}

/**
 * Run synchronous file work on the journal at `location` as a promise: a throw becomes a
 * rejection, and a file system fault (a directory in its place, an immutable file, a full disk, a
 * read-only mount) becomes the one-sentence refusal naming the file (errors/environment-fault.ts).
 */
export function attempt<T>(work: () => T, location: string): Promise<T> {
  return new Promise<T>((resolve) => resolve(work())).catch((error: unknown) => {
    throw environmentFault(error, location) ?? error;
  });
}
