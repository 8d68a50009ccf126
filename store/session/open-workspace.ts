// Opening a workspace to change it: the one place that takes the lease, opens the journal, settles
// an interrupted stash operation and stops orphaned agents (DESIGN §7, store/session/).
import { unfinishedRun } from '../fold/journal-runs.js';
import { readFailpoint } from '../journal/failpoint.js';
import type { HeldLease, JournalStore, LeaseHolder } from '../journal/journal-store.js';
import { JournalWriter } from '../journal/journal-writer.js';
import type { JournalRead } from '../journal/read-journal.js';
import type { ReadFrom } from './checkpoint-file.js';
import type { JournalRecord } from '../journal/record.js';
import { stashCommandOf } from '../stash/stash-entry.js';
import { foldStashIndex, type StashIndex } from '../stash/stash-index.js';
import type { StashContext } from '../stash/stash-operation.js';
import { settleStash, type SettleReport } from '../stash/stash-recovery.js';
import { openJournalStore } from './open-store.js';
import { stopOrphans } from './stop-orphans.js';
import { watchForTampering } from './tamper-check.js';
import type { WorkspacePaths } from './workspace-paths.js';
import { YokeError } from '../../errors/yoke-error.js';

/** How to open a workspace. */
export interface OpenWorkspaceOptions {
  /** the command holding the lease (`yoke run`, `yoke stash`, …), as the lease records it */
  command: string;
  /** one-line warnings (a torn tail cut off) */
  warn: (message: string) => void;
  /** a stale lease was taken over from `holder` */
  onStale: (holder: LeaseHolder) => void;
  /** told about every record as it is staged (`yoke run --json`) */
  listener?: ((record: JournalRecord) => void) | null;
  /** a read taken before the lease: reused when nobody wrote since (a read from a checkpoint too: `from`) */
  known?: (JournalRead & { from?: ReadFrom | null }) | null;
  /** stop agent process groups the unfinished run left running (`yoke run`, which resumes or abandons it) */
  stopOrphans?: boolean;
}

/** A workspace held by this process: its journal open, no stash operation pending. */
export interface WorkspaceSession {
  paths: WorkspacePaths;
  journal: JournalWriter;
  /** what a stash operation works with */
  stash: StashContext;
  /** what settling an interrupted stash operation did (null: none was pending) */
  settled: SettleReport | null;
  /** the run that started and neither finished nor was abandoned, if any */
  unfinished: string | null;
  /** effect keys whose agent, left running by the unfinished run, was stopped */
  stoppedOrphans: string[];
  /**
   * The checkpoint the journal was read from (null: every record was read): `journal.records` then
   * hold, before it, only the records its ledger kept, and sums over its run start from its tallies.
   */
  readFrom: ReadFrom | null;
  /** the stash index as the journal says now */
  stashIndex(): StashIndex;
  /** the tamper check around an agent call (store/session/tamper-check.ts) */
  guardAgentCall(): Promise<() => Promise<void>>;
  /** the same around a parallel lane's agent call, while other lanes work (the backups are not fingerprinted) */
  guardLaneCall(): Promise<() => Promise<void>>;
  /** flush and close the journal, call `beforeRelease` (e.g. a last status view), give up the lease */
  close(beforeRelease?: () => Promise<void> | void): Promise<void>;
}

/**
 * Open the workspace at `paths` for writing: take the lease (a live holder refuses, exit 3), open
 * and check the journal (a torn tail is repaired and journaled), finish or roll back a stash
 * operation a crash interrupted, and, with `stopOrphans`, stop the agents the unfinished run left
 * behind (pid + start time, never by name). Anything that fails on the way undoes what was taken.
 * `paths` may name a workspace of a shared store with no checkout here (`--workspace`,
 * cli/workspace-target.ts): the lease and the journal are the store's, as for any writer.
 */
export async function openWorkspace(paths: WorkspacePaths, options: OpenWorkspaceOptions): Promise<WorkspaceSession> {
  const store = openJournalStore(paths, options.warn);
  const lease = await store.lease.acquire(options.command, options.onStale);
  let journal: JournalWriter | null = null;
  try {
    journal = await JournalWriter.open(store, { warn: options.warn, listener: options.listener ?? null, known: options.known ?? null });
    const locate = (seq: number): string => store.recordLocation(seq);
    const stash: StashContext = { loopDir: paths.loopDir, stashDir: paths.stashDir, journal, failpoint: readFailpoint(process.env, () => undefined), locate };
    const settled = await settleStashHere(paths, stash, foldStashIndex(journal.records, locate));
    const unfinished = unfinishedRun(journal.records);
    const stopped = options.stopOrphans === true && unfinished !== null ? await stopOrphans(journal.records, unfinished) : [];
    const readFrom = journal.base === null ? null : options.known?.from ?? null;
    if (journal.base !== null && readFrom === null) throw new Error('a journal read from a checkpoint came without the checkpoint');
    return session(paths, store, lease, journal, stash, settled, unfinished, stopped, readFrom);
  } catch (error) {
    try {
      await journal?.close();
    } finally {
      await lease.release();
    }
    throw error;
  }
}

/**
 * Settle an interrupted stash operation, in the checkout it works on. A workspace named by
 * `--workspace` has no checkout here (`paths.root` is a cache folder): its stash files are in the
 * checkout that began the operation, so one pending refuses the command (exit 3), and with none
 * there is nothing of the stash here to tidy.
 */
async function settleStashHere(paths: WorkspacePaths, stash: StashContext, index: StashIndex): Promise<SettleReport | null> {
  if (paths.store === null) return settleStash(stash, index);
  if (index.open === null) return null;
  throw new YokeError('workspace', `workspace ${paths.name ?? '?'}: a \`${stashCommandOf(index.open.begun.op)}\` a crash interrupted (journal record ${index.open.seq}) must be settled in the checkout that began it, not through --workspace: run any yoke command that writes there (with YOKE_STORE and YOKE_WORKSPACE set), then try again; nothing was written.`);
}

function session(
  paths: WorkspacePaths,
  store: JournalStore,
  lease: HeldLease,
  journal: JournalWriter,
  stash: StashContext,
  settled: SettleReport | null,
  unfinished: string | null,
  stoppedOrphans: string[],
  readFrom: ReadFrom | null,
): WorkspaceSession {
  return {
    paths, journal, stash, settled, unfinished, stoppedOrphans, readFrom,
    stashIndex: () => foldStashIndex(journal.records, stash.locate),
    guardAgentCall: () => watchForTampering(paths, journal, lease),
    guardLaneCall: () => watchForTampering(paths, journal, lease, { blobs: false }),
    close: async (beforeRelease) => {
      try {
        await journal.close();
      } finally {
        try {
          await beforeRelease?.();
        } finally {
          await lease.release();
        }
      }
    },
  };
}
