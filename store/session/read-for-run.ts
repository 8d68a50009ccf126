// What `yoke run` reads before it takes the lease (and, when nobody writes meanwhile, opens the journal on).
import { trustedCheckpoint } from '../fold/fold-checkpoint.js';
import { startOf, unfinishedRun } from '../fold/journal-runs.js';
import { readWorkspace, readWorkspaceFrom, type WorkspaceRead } from './read-workspace.js';
import type { WorkspacePaths } from './workspace-paths.js';

/**
 * The journal of the workspace at `paths`, for `yoke run`: read from the saved fold checkpoint on
 * when the run it resumes is that checkpoint's (the journal's bytes before it kept for a rescue),
 * else every record (`--fresh`, or a new run: its routing decision and the check of the last run
 * read every record).
 */
export async function readForRun(paths: WorkspacePaths, fresh: boolean): Promise<WorkspaceRead> {
  const read = fresh ? null : readWorkspaceFrom(paths, true);
  const checkpoint = read?.from?.checkpoint ?? null;
  const run = read === null ? null : unfinishedRun(read.records);
  // the run to resume is the checkpoint's, and the checkpoint is the one its fold may start from
  if (read !== null && checkpoint !== null && run !== null && run === checkpoint.started.run && trustedCheckpoint(checkpoint, read.records, startOf(read.records, run)) !== null) return read;
  return readWorkspace(paths);
}
