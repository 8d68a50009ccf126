// Reading a whole journal (or a range of it) from any store into memory.
import { EMPTY_HEAD, type JournalHead } from './journal-head.js';
import type { JournalReader, ReadRange, TornTail } from './journal-store.js';
import type { JournalRecord } from './record.js';

/** The records of a read, the head it ended at, and a torn tail after it (left alone). */
export interface JournalRead {
  records: JournalRecord[];
  head: JournalHead;
  torn: TornTail | null;
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
