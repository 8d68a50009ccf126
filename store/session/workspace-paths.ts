// Where yoke keeps things inside a project (DESIGN §1).
import { join } from 'node:path';
import { journalDirOf, journalEntry, stashDirOf } from '../../effects/fs/workspace-layout.js';

/** Absolute paths of a workspace's yoke-owned locations. */
export interface WorkspacePaths {
  root: string;
  loopDir: string;
  conf: string;
  journalDir: string;
  journal: string;
  lock: string;
  stashDir: string;
}

/** Paths for the project rooted at `root`. */
export function workspacePaths(root: string): WorkspacePaths {
  const loopDir = join(root, '.loop');
  return {
    root,
    loopDir,
    conf: join(loopDir, 'yoke.conf'),
    journalDir: journalDirOf(loopDir),
    journal: journalEntry(loopDir, 'journal'),
    lock: journalEntry(loopDir, 'lock'),
    stashDir: stashDirOf(loopDir),
  };
}
