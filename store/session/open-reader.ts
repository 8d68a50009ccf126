// A workspace's journal (or any journal file) for reading only: what read commands open. Nothing
// reachable from here can append, take the lease or run an effect (tests/cli/commands/replay-imports.test.ts).
import { resolve } from 'node:path';
import { FileJournalReader } from '../journal/file/file-journal-reader.js';
import type { JournalReader } from '../journal/journal-store.js';
import { PostgresJournalReader } from '../journal/postgres/postgres-journal-reader.js';
import { selectStore } from './store-selection.js';
import type { WorkspacePaths } from './workspace-paths.js';

/** The journal of the workspace at `paths`, to read. */
export function openJournalReader(paths: WorkspacePaths): JournalReader {
  const selection = selectStore(paths.root, paths.name, process.env, paths.store);
  if (selection.kind === 'postgres') return new PostgresJournalReader(selection.url, selection.workspace);
  return new FileJournalReader(paths.journal);
}

/** The journal of the workspace called `workspace` in the shared store at `url` (the fleet's view of every workspace), to read. */
export function sharedJournalReader(url: string, workspace: string): JournalReader {
  return new PostgresJournalReader(url, workspace);
}

/** A journal outside any workspace (`yoke replay --journal <file>`), to read. */
export function journalReaderAt(location: string): JournalReader {
  return new FileJournalReader(resolve(location));
}
