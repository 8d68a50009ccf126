// A stash command's first look at the workspace, before it takes the lease: may it start, and is there work pending?
import { readJournal } from '../journal/read-journal.js';
import { foldStashIndex, type RecordLocator, type StashIndex } from '../stash/stash-index.js';
import { openJournalStore } from './open-store.js';
import type { WorkspacePaths } from './workspace-paths.js';

/** The stash index as the journal says now, and whether a repair awaits (then a preflight must not answer). */
export interface StashPreview {
  paths: WorkspacePaths;
  index: StashIndex;
  /** how messages name a journal record */
  locate: RecordLocator;
  /** an interrupted operation or a torn tail: the command has work to do regardless */
  pending: boolean;
}

/** Refuse while a live yoke holds the lease (exit 3), else read the stash index; changes nothing. */
export async function previewStash(paths: WorkspacePaths): Promise<StashPreview> {
  const store = openJournalStore(paths);
  await store.lease.assertFree();
  const read = await readJournal(store);
  const locate = (seq: number): string => store.recordLocation(seq);
  const index = foldStashIndex(read.records, locate);
  return { paths, index, locate, pending: index.open !== null || read.torn !== null };
}
