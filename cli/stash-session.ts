// What every command that changes `.loop/` through the stash does around its work, as the user sees
// it: a preflight that may answer without the lease, then the opened workspace's notices, then the body.
import type { StashIndex } from '../store/stash/stash-index.js';
import type { StashContext } from '../store/stash/stash-operation.js';
import { openWorkspace } from '../store/session/open-workspace.js';
import { previewStash, type StashPreview } from '../store/session/stash-preview.js';
import type { WorkspacePaths } from '../store/session/workspace-paths.js';
import { findProject } from './find-project.js';
import { settleLines } from './stash-format.js';
import { warn } from './terminal.js';

/** A locked workspace with its journal open and no stash operation pending. */
export interface StashSession {
  paths: WorkspacePaths;
  ctx: StashContext;
  index: StashIndex;
}

export type { StashPreview };

/**
 * Run a stash command. First, without writing anything: a live holder of the lease refuses (exit
 * 3), and `preflight` may refuse (usage errors) or answer on its own (a non-null result: nothing
 * to do). It is skipped when an interrupted operation or a torn journal tail awaits repair,
 * because then the command has work to do regardless. Then `body` runs in the opened workspace
 * (store/session/open-workspace.ts), after the user was told what settling an interrupted stash
 * operation did; an unfinished run is mentioned, since `yoke run` would resume it with the files
 * it started with. `body` re-checks what the preflight checked: the workspace may have changed.
 */
export async function withStashSession<T>(command: string, preflight: (preview: StashPreview) => T | null, body: (session: StashSession) => Promise<T>): Promise<T> {
  const paths = findProject(process.cwd());
  const preview = await previewStash(paths);
  if (!preview.pending) {
    const answer = preflight(preview);
    if (answer !== null) return answer;
  }
  const session = await openWorkspace(paths, { command, warn, onStale: (stale) => warn(`took over a stale lock left by pid ${stale.pid}`) });
  try {
    if (session.settled) for (const line of settleLines(session.settled)) warn(line);
    if (session.unfinished !== null) {
      warn(`run ${session.unfinished} is unfinished: \`yoke run\` would resume it with the spec files it started with; \`yoke run --fresh\` starts over.`);
    }
    return await body({ paths, ctx: session.stash, index: session.stashIndex() });
  } finally {
    await session.close();
  }
}
