// Where yoke keeps things inside a project (DESIGN §1).
import { join } from 'node:path';

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
  const journalDir = join(loopDir, '.journal');
  return {
    root,
    loopDir,
    conf: join(loopDir, 'yoke.conf'),
    journalDir,
    journal: join(journalDir, 'journal.jsonl'),
    lock: join(journalDir, 'lock'),
    stashDir: join(loopDir, '.stash'),
  };
}
