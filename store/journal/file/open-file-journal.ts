// A writer on a journal file by path, for callers that hold no workspace (benchmarks, tests, drills).
import { JournalWriter, type WriterOptions } from '../journal-writer.js';
import { FileJournalStore } from './file-journal-store.js';

/**
 * Open the journal file at `path` for writing, without taking the lease: the caller answers for
 * being its only writer. A workspace is opened through store/session/open-workspace.ts instead.
 */
export function openFileJournal(path: string, options: Partial<WriterOptions> = {}): Promise<JournalWriter> {
  const warn = options.warn ?? (() => undefined);
  return JournalWriter.open(new FileJournalStore(path, { warn }), { ...options, warn });
}
