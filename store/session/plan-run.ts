// What `yoke run` journals before driving: resume the unfinished run, or start a new one (abandoning
// the old with --fresh), and what changed since for the resumed one (--max-iterations, --parallel,
// the protection baseline, its lifecycle's own files) or, for a new one, in its lifecycle's own
// files since its last run. Pure: records (and the lifecycle's files and blobs, read through the
// caller's readers) in, records to stage and files to write out.
import { formatIssue } from '../../config/format-issue.js';
import { effectiveConfigDigest } from '../../effects/acceptance/config-digest.js';
import type { Config, ConfigIssue } from '../../config/types.js';
import type { BlobReader, LifecycleDescriptor, LoopFileReader, Notice, ResumeEdit } from '../../machines/lifecycles/lifecycle-descriptor.js';
import type { Lifecycle } from '../../machines/lifecycles/registry.js';
import type { Protection } from '../../machines/protect/protection.js';
import type { WorkContext, WorkInput } from '../../machines/work/work-context.js';
import { foldRun, lifecycleOf, runStarts, startOf, unfinishedRun } from '../fold/journal-runs.js';
import type { FoldCheckpoint } from '../fold/fold-checkpoint.js';
import type { RunFold } from '../fold/run-fold.js';
import { stateText } from '../fold/state-text.js';
import type { JournalRecord, RecordDraft, StartedRecord } from '../journal/record.js';
import { checkLastRun, foldCheckedRun, type LocateRecord } from './fold-checked-run.js';
import { laneTouched } from '../projections/lane-touched.js';
import { routingDecisionFor } from '../projections/routing-sequences.js';
import { YokeError } from '../../errors/yoke-error.js';

/** A run to start: its lifecycle and the machine's input (parsed config, prompts, spec files). */
export interface NewRun {
  /** (its `sinceLastRun`: what the new run journals first about its own files' edits since the last one) */
  lifecycle: Pick<Lifecycle, 'name' | 'version'> & Pick<LifecycleDescriptor, 'sinceLastRun'>;
  input: WorkInput;
  /** how it was started (`run`, `--fresh`, …) */
  argv: string[];
  /** `.yoke/context/` exists (looked at by the caller): journaled in the input as `contextLayer` (DESIGN §9) */
  contextLayer?: boolean;
}

/** What the user asked for, and the inputs the plan may not read itself (ids, the process). */
export interface RunRequest {
  /** `--fresh`: abandon the unfinished run and start a new one */
  fresh: boolean;
  /** `--max-iterations`: the new run's cap, or a new cap for the resumed one */
  maxIterations?: number;
  /** `--parallel`: a resumed parallel run given another N journals it (`SET_PARALLEL`); a new run has it in its config already */
  parallel?: number;
  /** reads `.loop/` files (the caller's I/O): a resumed run's lifecycle checks its own files and journals the user's edits to them (a new run's, since its last run) */
  readLoopFile: LoopFileReader;
  /** reads blobs (the caller's I/O): a resumed run's lifecycle puts back its own files that are missing from the versions the run holds; without it, none are */
  readBlob?: BlobReader;
  /** what a new run starts with; null when the caller expects to resume (it read no config) */
  start: NewRun | null;
  /** the id a new run gets */
  runId: string;
  /** this process (journaled in `run.resumed`) */
  pid: number;
  /** the protection baseline in force (DESIGN §16): a new run protects it; a resumed run that protects an older one is told (`PROTECTION_REFRESHED`) */
  protection?: Protection | null;
  /** where a record is, for a refusal's message (default `record <seq>`) */
  locate?: LocateRecord;
  /** a saved fold of the unfinished run (`.journal/checkpoint.json`): used when the journal vouches for it */
  checkpoint?: FoldCheckpoint | null;
  /** `records` were read from `checkpoint`, after this record (before it they hold only what it kept): only a resume of its run is planned on them */
  readFrom?: number | null;
}

/** The decision, and the records that carry it out, in order. */
export type RunPlan =
  | {
    kind: 'resume';
    run: string;
    started: StartedRecord;
    /** the run folded up to the journal's end, before `drafts` (apply them as they are staged) */
    fold: RunFold;
    /** where it stands: the iteration and state the user is told about */
    iteration: number;
    state: string;
    drafts: RecordDraft[];
    /** `.loop/` files to rewrite (name → content) and contents to keep as blobs, before `drafts` are journaled: they name them */
    writes: Readonly<Record<string, string>>;
    blobs: readonly string[];
    /** what to tell the user about the changes journaled, in order */
    notices: Notice[];
  }
  | {
    kind: 'start';
    run: string;
    mode: string;
    /** the unfinished run given up (--fresh), if any */
    abandoned: string | null;
    maxIterations: number;
    drafts: RecordDraft[];
    /** `.loop/` files to rewrite first (name → content): its lifecycle's own files as changed since its last run (a reopened story's flag set back) */
    writes: Readonly<Record<string, string>>;
    blobs: readonly string[];
    /** what to tell the user about the changes journaled, in order */
    notices: Notice[];
  };

/**
 * Decide what `yoke run` does with the journal `records`: resume the unfinished run (journal
 * `run.resumed`; `SET_MAX_ITERATIONS` when `--max-iterations` changes its cap; `PROTECTION_REFRESHED`
 * for a newer baseline; its lifecycle's event for edits to its own files, which must be valid and
 * leave the work the run still owes something to do it on (else a `usage` error, nothing journaled); `SET_PARALLEL` when `--parallel` changes its N), or start a new
 * one (`run.abandoned` for an unfinished run under `--fresh`, then `run.started` with the
 * `--max-iterations` override applied to its config). A run recorded by a machine version this
 * yoke lacks refuses the workspace (a `workspace` YokeError), as folding it would. So does a record
 * of the run built on (the one resumed, or without `--fresh` the last one) that `--verify` would
 * call a divergence: a forged, re-chained record is never built on.
 */
export function planRun(records: readonly JournalRecord[], request: RunRequest): RunPlan {
  const open = unfinishedRun(records);
  const locate = request.locate ?? ((seq: number) => `record ${seq}`);
  if (open !== null && !request.fresh) {
    const started = startOf(records, open);
    const lifecycle = lifecycleOf(started);
    const fold = foldCheckedRun(records, started, locate, request.checkpoint ?? null, request.readFrom ?? null);
    const context = fold.snapshot.context as WorkContext;
    const meta = { run: open, machine: started.machine, mv: started.mv };
    const drafts: RecordDraft[] = [{ ...meta, type: 'run.resumed', payload: { pid: request.pid } }];
    const event = (payload: Extract<RecordDraft, { type: 'event' }>['payload']['event']): RecordDraft => ({ run: open, machine: lifecycle.name, mv: lifecycle.version, type: 'event', payload: { cause: null, event: payload } });
    if (request.maxIterations !== undefined && context.maxIterations !== request.maxIterations) drafts.push(event({ type: 'SET_MAX_ITERATIONS', max: request.maxIterations }));
    const protection = request.protection ?? null;
    if (protection !== null && context.protection !== undefined && context.protection.digest !== protection.digest) drafts.push(event({ type: 'PROTECTION_REFRESHED', protection }));
    // Its own files that an agent removed before the run could restore them are put back first, as the run holds them.
    const restore = request.readBlob === undefined ? null : lifecycle.resumeRestore?.(context, request.readLoopFile, request.readBlob) ?? null;
    const read: LoopFileReader = restore === null ? request.readLoopFile : (name) => restore.writes[name] ?? request.readLoopFile(name);
    // The lifecycle's own files are re-read on every resume (stories: prd.yaml), so a fix made while the run was held is picked up.
    checkOwnFiles(lifecycle.validate?.(read) ?? []);
    // ... and must leave the work the run still owes (stories: a pass) something to do it on.
    checkOwnFiles(lifecycle.resumeIssues?.(context, read, fold.outstanding.map((keyed) => keyed.request)) ?? []);
    const edit = lifecycle.resumeEdit?.(context, read) ?? null;
    const notices: Notice[] = [...(restore?.notices ?? []), ...(edit?.notices ?? [])];
    if (edit !== null) drafts.push(event(edit.event));
    if (request.parallel !== undefined && context.config.parallel !== undefined && context.config.parallel !== request.parallel) {
      drafts.push(event({ type: 'SET_PARALLEL', parallel: request.parallel }));
      notices.push({ level: 'progress', text: `parallel changed to ${request.parallel} (--parallel)` });
    }
    return {
      kind: 'resume', run: open, started, fold, iteration: context.iteration, state: stateText(fold.snapshot.value), drafts,
      writes: { ...restore?.writes, ...edit?.writes }, blobs: edit?.blobs ?? [], notices,
    };
  }
  const start = request.start;
  if (!start) throw new Error('a new run needs its lifecycle and input');
  // the routing decision and the check of the last run read every record
  if ((request.readFrom ?? null) !== null) throw new Error('a new run is planned on every record of the journal, not on a read from a checkpoint');
  // `--fresh` leaves the last run behind deliberately; otherwise a new run must not follow a forged ending
  const checked = request.fresh ? null : checkLastRun(records, locate);
  const drafts: RecordDraft[] = [];
  if (open !== null) {
    const old = startOf(records, open);
    drafts.push({ type: 'run.abandoned', run: open, machine: old.machine, mv: old.mv, payload: { reason: 'yoke run --fresh' } });
  }
  const config: Config = request.maxIterations === undefined ? start.input.config : { ...start.input.config, maxIterations: request.maxIterations };
  // The run id is part of the input: goal acceptance labels its proof folder with it; the context layer is a fact of it too.
  // routing economic: the starting profile is decided here, from the runs before this one, and journaled.
  const routing = routingDecisionFor(records, config);
  const protection = request.protection ?? null;
  // parallel stories: the file-overlap prediction starts from what earlier runs' lanes touched (DESIGN §10).
  const touchedBefore = config.parallel === undefined ? {} : laneTouched(records);
  // Only a baseline that protects something goes into the input: without one, the input is what older yokes journaled.
  const input: WorkInput = {
    ...start.input, config, run: request.runId, toolCallProof: true,
    // the whole effective config's digest, for the reports of the run's acceptance checks (DESIGN §12)
    configDigest: effectiveConfigDigest(config),
    // The block opens every prompt (inject), parallel lanes' too (they read the layer in their worktrees, docs/parallel.md).
    ...(start.contextLayer === true ? { contextLayer: { run: request.runId, inject: true as const } } : {}),
    ...(routing ? { routing } : {}),
    // sequenceRouting: this yoke routes by sequence (escalate per story and chunk, a model per profile, stricter evidence); older journals lack it
    ...(config.profiles !== undefined ? { sequenceRouting: true as const } : {}),
    // laneRouting: this yoke's parallel lanes route per story too (older journals lack it, and their lanes stay on the bottom rung)
    ...(config.profiles !== undefined && config.parallel !== undefined ? { laneRouting: true as const } : {}),
    // protectAll: this yoke scans after every agent call and measures the check's digest (older journals lack it and fold as they did)
    ...(protection !== null && (protection.patterns.length > 0 || protection.files.length > 0) ? { protection, protectAll: true as const } : {}),
    ...(Object.keys(touchedBefore).length > 0 ? { touchedBefore } : {}),
  };
  drafts.push({
    type: 'run.started', run: request.runId, machine: start.lifecycle.name, mv: start.lifecycle.version,
    payload: { mode: config.mode, input, argv: start.argv },
  });
  // DESIGN §8: the user's edits to its own files since its last run (stories: a reopened story), journaled first.
  const since = editSinceLastRun(records, start.lifecycle, request.readLoopFile, checked);
  if (since !== null) {
    drafts.push({ type: 'event', run: request.runId, machine: start.lifecycle.name, mv: start.lifecycle.version, payload: { cause: null, event: since.event } });
  }
  return {
    kind: 'start', run: request.runId, mode: config.mode, abandoned: open, maxIterations: config.maxIterations, drafts,
    writes: since?.writes ?? {}, blobs: since?.blobs ?? [], notices: [...(since?.notices ?? [])],
  };
}

/**
 * The edit a new run of `lifecycle` journals for its own files as they changed since the last run
 * of the same lifecycle ended (finished or abandoned), or null: none, no such run, or one this yoke
 * cannot fold (a machine version it lacks; that run is not compared). `checked`: the last run's
 * fold when checkLastRun made one (reused when it is that run).
 */
function editSinceLastRun(records: readonly JournalRecord[], lifecycle: NewRun['lifecycle'], readLoopFile: LoopFileReader, checked: RunFold | null): ResumeEdit | null {
  const { sinceLastRun } = lifecycle;
  if (sinceLastRun === undefined) return null;
  const last = runStarts(records).filter((record) => record.machine === lifecycle.name).at(-1);
  if (last === undefined) return null;
  let context: WorkContext;
  try {
    context = (checked !== null && checked.run === last.run ? checked : foldRun(records, last)).snapshot.context as WorkContext;
  } catch (error) {
    if (error instanceof YokeError && error.code === 'workspace') return null;
    throw error;
  }
  return sinceLastRun(context, readLoopFile);
}

/** A `usage` error listing every error the lifecycle finds in its own files (prd.yaml) as a run resumes: nothing is journaled. */
function checkOwnFiles(issues: readonly ConfigIssue[]): void {
  const errors = issues.filter((issue) => issue.severity === 'error');
  const [first, ...rest] = errors;
  if (first) throw new YokeError('usage', formatIssue(first), [...rest.map(formatIssue), `${errors.length} error(s); nothing was run.`]);
}

/** The config the unfinished run started with, as journaled in its `run.started` input (null: no unfinished run). */
export function journaledConfig(records: readonly JournalRecord[]): Config | null {
  const open = unfinishedRun(records);
  if (open === null) return null;
  const input = startOf(records, open).payload.input as { config?: Config } | undefined;
  return input?.config ?? null;
}
