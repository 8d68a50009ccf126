// Where yoke keeps things inside a project (DESIGN §1).
import { join } from 'node:path';
import { journalDirOf, journalEntry, stashDirOf } from '../../config/workspace-layout.js';

/** Absolute paths of a workspace's yoke-owned locations. */
export interface WorkspacePaths {
  root: string;
  loopDir: string;
  conf: string;
  journalDir: string;
  journal: string;
  lock: string;
  stashDir: string;
  /** the workspace's name in a shared store (`--workspace`; null: YOKE_WORKSPACE or the folder's name) */
  name: string | null;
  /** the shared store `--workspace` found (null: chosen from `root` as usual, store-selection.ts) */
  store: string | null;
}

/** Paths for the project rooted at `root` (`name`: the workspace's name in a shared store, when given, and `store` that store's URL). */
export function workspacePaths(root: string, name: string | null = null, store: string | null = null): WorkspacePaths {
  const loopDir = join(root, '.loop');
  return {
    root,
    loopDir,
    conf: join(loopDir, 'yoke.conf'),
    journalDir: journalDirOf(loopDir),
    journal: journalEntry(loopDir, 'journal'),
    lock: journalEntry(loopDir, 'lock'),
    stashDir: stashDirOf(loopDir),
    name,
    store,
  };
}
