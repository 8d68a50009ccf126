// Reads `.loop/.journal/journal.jsonl` as plain records, for assertions on what a run journaled.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The fields of a journal record the e2e tests look at. */
export interface JournalRecord {
  seq: number;
  type: string;
  run: string;
  payload: unknown;
  [field: string]: unknown;
}

/** Path of the journal inside a project. */
export function journalPath(projectRoot: string): string {
  return join(projectRoot, '.loop', '.journal', 'journal.jsonl');
}

/** All records in order; empty when there is no journal. */
export async function readJournal(ws: { path: string }): Promise<JournalRecord[]> {
  const file = journalPath(ws.path);
  if (!existsSync(file)) return [];
  return (await readFile(file, 'utf8'))
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as JournalRecord);
}
