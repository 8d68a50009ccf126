// A read-only look at a workspace's journal, for the commands that only read (never the lease, never a write).
import type { JournalReader } from '../journal/journal-store.js';
import { readJournal, type JournalRead } from '../journal/read-journal.js';
import { openJournalReader } from './open-reader.js';
import type { WorkspacePaths } from './workspace-paths.js';

/** Every record (checked), the head, a torn tail (left alone), and the reader it came from. */
export interface WorkspaceRead extends JournalRead {
  store: JournalReader;
}

/**
 * Read the whole journal of the workspace at `paths`. Changes nothing: a torn tail is reported,
 * not repaired, and damage refuses the workspace (a `workspace` YokeError naming the record).
 */
export async function readWorkspace(paths: WorkspacePaths): Promise<WorkspaceRead> {
  const store = openJournalReader(paths);
  return { ...(await readJournal(store)), store };
}
