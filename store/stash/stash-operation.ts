// One stash command as a crash-safe operation: stage → journal the intent (and the push) → clear
// `.loop/` → rename the staged names in → journal the end. See docs/stash.md.
import type { Mode } from '../../config/types.js';
import { stashStepper, type Failpoint } from '../journal/failpoint.js';
import type { JournalWriter } from '../journal/journal-writer.js';
import type { Payload, RecordDraft } from '../journal/record.js';
import { clearEntries } from './stash-clear.js';
import { manifestProblem } from './stash-entry-safety.js';
import { sortEntries, stashId, topName, treeHash, type ModeTag, type StashEntry, type StashOp } from './stash-entry.js';
import { entryIdHolds, foldStashIndex, type IndexEntry, type OpenOperation, type RecordLocator, type StashIndex } from './stash-index.js';
import { writeObject } from './stash-objects.js';
import { entriesUnder, placeStaged, stageEntries } from './stash-restore.js';
import { scanLoop, visibleNames, type LoopSnapshot } from './stash-scan.js';
import { newWorkName, removeTree, stagingDir, workDir } from './stash-work.js';
import { YokeError } from '../../errors/yoke-error.js';

/** Where and with what a stash operation works. */
export interface StashContext {
  loopDir: string;
  stashDir: string;
  journal: JournalWriter;
  failpoint: Failpoint | null;
  /** how messages name a journal record (the store's `recordLocation`) */
  locate: RecordLocator;
}

/** What a stash command asks for, decided by the CLI from its arguments and the index. */
export interface StashRequest {
  op: StashOp;
  /** stash the current files first (when there are any), with this tag and message */
  push: { mode: ModeTag; message: string | null } | null;
  /** bring back this entry afterwards (pop, checkout) */
  restore: IndexEntry | null;
  /**
   * write these files afterwards (clean, mode): a mode's templates; names in `keep` are taken from
   * the stashed files instead when they were there (clean keeps the spec files)
   */
  init: { mode: Mode; files: { name: string; content: Buffer }[]; keep: string[] } | null;
}

/** What an operation did, for the CLI to report. */
export interface StashOutcome {
  pushed: IndexEntry | null;
  restored: IndexEntry | null;
  /** names written into `.loop/` from `init` */
  initialized: string[];
  /** false when there was nothing to do (nothing journaled, nothing changed) */
  changed: boolean;
}

/** What finishing an operation had to leave alone (only ever non-empty when recovering). */
export interface FinishReport {
  /** files left in `.loop/` because they changed after a crash (their stashed version is safe) */
  kept: string[];
  /** files of the pushed entry found nowhere: deleted after a crash */
  missing: string[];
  /** names not restored because something else now has that name in `.loop/` */
  conflicts: string[];
}

const workspaceRecord = { run: null, machine: null, mv: null } as const;

/**
 * Carry out `request` (the index must have no open operation). Nothing in `.loop/` changes until
 * the intent is durable; after that, a crash is finished by `settleStash`.
 */
export async function performStashOp(ctx: StashContext, index: StashIndex, request: StashRequest): Promise<StashOutcome> {
  if (index.open) throw new Error('an unfinished stash operation must be settled first');
  const restore = request.restore;
  if (restore && request.push) checkRestorable(restore, ctx.locate);
  else if (restore) checkPoppable(ctx.loopDir, restore, ctx.locate);
  const snapshot = request.push && visibleNames(ctx.loopDir).length > 0 ? scanLoop(ctx.loopDir) : null;
  const now = Date.now();
  const pushed = snapshot && request.push ? pushPayload(snapshot, request.op, request.push, new Date(now).toISOString(), ctx.journal.head.hash) : null;
  const init = request.init ? { mode: request.init.mode, entries: initEntries(ctx.stashDir, request.init, snapshot) } : null;
  if (!pushed && !restore && !init) return { pushed: null, restored: null, initialized: [], changed: false };

  const target = restore?.entries ?? init?.entries ?? [];
  const work = newWorkName();
  try {
    stageEntries(ctx.stashDir, stagingDir(ctx.stashDir, work), target, snapshot ? ctx.loopDir : null, stashStepper(ctx.failpoint, 'stash-stage'));
  } catch (error) {
    removeTree(workDir(ctx.stashDir, work)); // nothing was journaled: the operation never happened
    throw error;
  }
  const begun: RecordDraft = {
    ...workspaceRecord,
    type: 'stash.begun',
    payload: { op: request.op, work, push: pushed?.id ?? null, restore: restore?.id ?? null, init },
  };
  ctx.journal.stage(begun, now);
  if (pushed) ctx.journal.stage({ ...workspaceRecord, type: 'stash.pushed', payload: pushed }, now);
  await ctx.journal.flush();

  const after = foldStashIndex(ctx.journal.records, ctx.locate);
  if (!after.open) throw new Error('the operation just begun is not open');
  await finishOperation(ctx, after, after.open, { recovering: false, hardLinked: snapshot?.hardLinked ?? new Set() });
  return {
    pushed: after.open.pushed,
    restored: restore,
    initialized: init ? [...new Set(init.entries.map((entry) => topName(entry.path)))] : [],
    changed: true,
  };
}

/**
 * Take an open operation to its end: clear the pushed files if that is not journaled yet, rename
 * what is staged into `.loop/`, journal the end, remove the scratch folder.
 */
export async function finishOperation(
  ctx: StashContext,
  index: StashIndex,
  open: OpenOperation,
  options: { recovering: boolean; hardLinked: ReadonlySet<string> },
): Promise<FinishReport> {
  const report: FinishReport = { kept: [], missing: [], conflicts: [] };
  if (open.pushed && !open.cleared) {
    const cleared = clearEntries(ctx.loopDir, ctx.stashDir, open.pushed.entries, {
      hardLinked: options.hardLinked,
      verify: options.recovering,
      step: stashStepper(ctx.failpoint, 'stash-clear'),
    });
    report.kept = cleared.kept;
    report.missing = cleared.missing;
    await ctx.journal.append({ ...workspaceRecord, type: 'stash.cleared', payload: { id: open.pushed.id } });
  }
  const { begun } = open;
  const restoring = begun.restore === null ? null : index.entries.find((entry) => entry.id === begun.restore) ?? null;
  const target = restoring?.entries ?? begun.init?.entries ?? [];
  const staging = stagingDir(ctx.stashDir, begun.work);
  report.conflicts = placeStaged(ctx.loopDir, staging, target, {
    recovering: options.recovering,
    replaceable: begun.op === 'mode' ? ['.gitignore'] : [],
    restage: (name) => stageEntries(ctx.stashDir, staging, entriesUnder(target, name), null, () => undefined),
    step: stashStepper(ctx.failpoint, 'stash-place'),
  });
  if (restoring) {
    const via = begun.op === 'pop' ? 'pop' : 'checkout';
    ctx.journal.stage({ ...workspaceRecord, type: 'stash.restored', payload: { id: restoring.id, via } });
  }
  ctx.journal.stage({ ...workspaceRecord, type: 'stash.ended', payload: { op: begun.op, outcome: 'done' } });
  await ctx.journal.flush();
  removeTree(workDir(ctx.stashDir, begun.work));
  return report;
}

/** Refuse a pop into a `.loop/` that has files (exit 2), or of an entry unsafe to restore (exit 3). */
export function checkPoppable(loopDir: string, entry: IndexEntry, locate: RecordLocator): void {
  const visible = visibleNames(loopDir);
  if (visible.length > 0) {
    const shown = visible.slice(0, 3).join(', ') + (visible.length > 3 ? ', …' : '');
    throw new YokeError('usage', `.loop/ has files (${shown}); \`yoke stash\` them first, or use \`yoke stash checkout <id>\`, which stashes them for you. Nothing was changed.`);
  }
  checkRestorable(entry, locate);
}

/** Refuse (exit 3) to restore an entry that could write outside `.loop/` or whose id does not hold. */
export function checkRestorable(entry: IndexEntry, locate: RecordLocator): void {
  const problem = manifestProblem(entry.entries);
  if (problem) {
    throw new YokeError('workspace', `${locate(entry.seq)}: stash entry ${entry.id.slice(0, 12)} is unsafe to restore (${problem}); the journal was edited. Nothing was changed.`);
  }
  if (!entryIdHolds(entry)) {
    throw new YokeError('workspace', `${locate(entry.seq)}: stash entry ${entry.id.slice(0, 12)} does not match its id (its files, tag or message were edited). Nothing was changed.`);
  }
}

function pushPayload(snapshot: LoopSnapshot, op: StashOp, push: { mode: ModeTag; message: string | null }, time: string, parent: string): Payload<'stash.pushed'> {
  const tree = treeHash(snapshot.entries);
  const id = stashId({ tree, mode: push.mode, message: push.message, time, parent });
  return { id, tree, mode: push.mode, message: push.message, via: op, files: snapshot.files, bytes: snapshot.bytes, entries: snapshot.entries };
}

/** The manifest an `init` writes: templates stored as objects, or the stashed version of kept names. */
function initEntries(stashDir: string, init: NonNullable<StashRequest['init']>, snapshot: LoopSnapshot | null): StashEntry[] {
  const entries: StashEntry[] = [];
  for (const { name, content } of init.files) {
    const kept = init.keep.includes(name) && snapshot ? entriesUnder(snapshot.entries, name) : [];
    if (kept.length > 0) {
      entries.push(...kept);
      continue;
    }
    entries.push({ path: name, type: 'file', mode: 0o644, size: content.length, blob: writeObject(stashDir, content) });
  }
  const sorted = sortEntries(entries);
  const problem = manifestProblem(sorted, ['.gitignore']);
  if (problem) throw new Error(`template manifest is unsafe: ${problem}`);
  return sorted;
}
