// Reading a whole journal (or a range of it) from any store into memory.
import { EMPTY_HEAD, type JournalHead } from './journal-head.js';
import type { JournalReader, ReadRange, TornTail } from './journal-store.js';
import type { JournalRecord } from './record.js';

/** The records of a read, the head it ended at, and a torn tail after it (left alone). */
export interface JournalRead {
  records: JournalRecord[];
  head: JournalHead;
  torn: TornTail | null;
  /** set when the read started after a checkpoint (store/fold/fold-checkpoint.ts): `records` hold every record after `base.head`, and before it only those the checkpoint kept */
  base?: JournalBase;
}

/** Where a read that started after a checkpoint starts. */
export interface JournalBase {
  /** the last record the read did not parse, and its hash */
  head: JournalHead;
  /** the stored journal's bytes up to and including it, when the reader kept them (a writer puts them back after a foreign rewrite) */
  bytes: Uint8Array | null;
}

/** Read `range` of `store` (every record checked) into one array. */
export async function readJournal(store: JournalReader, range?: ReadRange): Promise<JournalRead> {
  const records: JournalRecord[] = [];
  let head = EMPTY_HEAD;
  let torn: TornTail | null = null;
  for await (const page of store.read(range)) {
    for (const record of page.records) records.push(record);
    head = page.head;
    torn = page.torn;
  }
  return { records, head, torn };
}
