// What every command that changes `.loop/` through the stash does around its work: refuse early
// without touching anything, then hold the lock, open the journal, settle an interrupted stash
// operation, and hand over the fresh index.
import { readFailpoint } from '../store/journal/failpoint.js';
import { readJournalFile } from '../store/journal/file/journal-file.js';
import { unfinishedRun } from '../store/fold/journal-runs.js';
import { Journal } from '../store/journal/file/journal.js';
import { foldStashIndex, type StashIndex } from '../store/stash/stash-index.js';
import type { StashContext } from '../store/stash/stash-operation.js';
import { settleStash } from '../store/stash/stash-recovery.js';
import { acquireLock, lockIsLive, readLock } from '../store/journal/file/workspace-lock.js';
import type { WorkspacePaths } from '../store/session/workspace-paths.js';
import { YokeError } from '../errors/yoke-error.js';
import { findProject } from './find-project.js';
import { settleLines } from './stash-format.js';
import { warn } from './terminal.js';

/** A locked workspace with its journal open and no stash operation pending. */
export interface StashSession {
  paths: WorkspacePaths;
  ctx: StashContext;
  index: StashIndex;
}

/** The workspace as it is, read without the lock: what a preflight may look at. */
export interface StashPreview {
  paths: WorkspacePaths;
  index: StashIndex;
}

/**
 * Run a stash command. First, without writing anything: a live run's lock refuses (exit 3), and
 * `preflight` may refuse (usage errors) or answer on its own (a non-null result: nothing to do).
 * It is skipped when an interrupted operation or a torn journal tail awaits repair, because then
 * the command has work to do regardless. Then `body` runs holding the lock, after an interrupted
 * stash operation was finished or rolled back (and the user told); an unfinished run is mentioned,
 * since `yoke run` would resume it with the files it started with. `body` re-checks what the
 * preflight checked: the workspace may have changed in between.
 */
export function withStashSession<T>(command: string, preflight: (preview: StashPreview) => T | null, body: (session: StashSession) => T): T {
  const paths = findProject(process.cwd());
  const owner = readLock(paths.lock);
  if (owner && owner.pid !== process.pid && lockIsLive(owner)) {
    throw new YokeError('workspace', `${paths.lock}: another yoke (${owner.command || 'pid'} ${owner.pid}) is working in this workspace; wait for it to finish or stop it first.`);
  }
  const contents = readJournalFile(paths.journal);
  const preview = { paths, index: foldStashIndex(contents.records, paths.journal) };
  if (!preview.index.open && contents.torn === null) {
    const answer = preflight(preview);
    if (answer !== null) return answer;
  }
  const release = acquireLock(paths.lock, command, (stale) => warn(`took over a stale lock left by pid ${stale.pid}`));
  let journal: Journal | null = null;
  try {
    journal = Journal.open(paths.journal, warn);
    const ctx: StashContext = { loopDir: paths.loopDir, stashDir: paths.stashDir, journal, failpoint: readFailpoint(process.env, () => undefined) };
    const report = settleStash(ctx, foldStashIndex(journal.records, paths.journal));
    if (report) for (const line of settleLines(report)) warn(line);
    const unfinished = unfinishedRun(journal.records);
    if (unfinished !== null) {
      warn(`run ${unfinished} is unfinished: \`yoke run\` would resume it with the spec files it started with; \`yoke run --fresh\` starts over.`);
    }
    return body({ paths, ctx, index: foldStashIndex(journal.records, paths.journal) });
  } finally {
    journal?.close();
    release();
  }
}
