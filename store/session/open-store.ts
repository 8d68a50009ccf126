// Which journal store a workspace uses: the file journal, the embedded default, or a shared PostgreSQL store (DESIGN §14).
import { FileJournalStore } from '../journal/file/file-journal-store.js';
import type { JournalStore } from '../journal/journal-store.js';
import { PostgresJournalStore } from '../journal/postgres/postgres-journal-store.js';
import { selectStore } from './store-selection.js';
import type { WorkspacePaths } from './workspace-paths.js';

/**
 * The workspace's journal store, to read and write. Opening it touches nothing (no lease, no file
 * created, no connection); `warn` hears about a malformed YOKE_FAILPOINT once the store is attached for writing.
 * Light on purpose: `yoke status` opens it on its fast path (no schemas load until a read; `pg` loads
 * on the first query).
 */
export function openJournalStore(paths: WorkspacePaths, warn: (message: string) => void = () => undefined): JournalStore {
  const selection = selectStore(paths.root, paths.name, process.env, paths.store);
  if (selection.kind === 'postgres') return new PostgresJournalStore(selection.url, selection.workspace, { warn });
  return new FileJournalStore(paths.journal, { lockPath: paths.lock, warn });
}
