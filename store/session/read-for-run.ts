// What `yoke run` reads before it takes the lease (and, when nobody writes meanwhile, opens the journal on).
import { unfinishedRun } from '../fold/journal-runs.js';
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
  if (read !== null && unfinishedRun(read.records) === read.from?.checkpoint.started.run) return read;
  return readWorkspace(paths);
}
