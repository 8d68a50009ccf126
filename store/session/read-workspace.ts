// A read-only look at a workspace's journal, for the commands that only read (never the lease, never a write).
import { environmentFault } from '../../errors/environment-fault.js';
import { FileJournalReader } from '../journal/file/file-journal-reader.js';
import type { JournalReader } from '../journal/journal-store.js';
import { readJournal, type JournalRead } from '../journal/read-journal.js';
import { readFromCheckpoint, savedCheckpoint, type ReadFrom } from './checkpoint-file.js';
import { openJournalReader } from './open-reader.js';
import type { WorkspacePaths } from './workspace-paths.js';

/** Every record (checked), the head, a torn tail (left alone), and the reader it came from. */
export interface WorkspaceRead extends JournalRead {
  store: JournalReader;
  /** the checkpoint the read started from (null: every record was read; see `readWorkspaceFrom`) */
  from: ReadFrom | null;
}

/**
 * Read the whole journal of the workspace at `paths`. Changes nothing: a torn tail is reported,
 * not repaired, and damage refuses the workspace (a `workspace` YokeError naming the record).
 */
export async function readWorkspace(paths: WorkspacePaths): Promise<WorkspaceRead> {
  const store = openJournalReader(paths);
  return { ...(await readJournal(store)), store, from: null };
}

/**
 * Read the journal of the workspace at `paths` from its saved fold checkpoint on, when there is one
 * the journal vouches for (store/session/checkpoint-file.ts): the records after it, checked as
 * `readWorkspace` checks them, and before it only those its ledger kept
 * (store/projections/checkpoint-ledger.ts). Null when there is none, or it does not check out
 * (then read every record). `keepBytes`: keep the journal's bytes before it (a writer's rescue).
 */
export function readWorkspaceFrom(paths: WorkspacePaths, keepBytes: boolean): WorkspaceRead | null {
  const store = openJournalReader(paths);
  if (!(store instanceof FileJournalReader)) return null; // only a journal file has the bytes a checkpoint hashes
  const checkpoint = savedCheckpoint(paths.loopDir);
  if (checkpoint === null) return null;
  try {
    const read = readFromCheckpoint(store.location, checkpoint, keepBytes);
    return read === null ? null : { records: read.records, head: read.head, torn: read.torn, base: read.base, store, from: { checkpoint, hash: read.hash } };
  } catch (error) {
    throw environmentFault(error, store.location) ?? error;
  }
}
