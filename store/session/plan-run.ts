// What `yoke run` journals before driving: resume the unfinished run, or start a new one (abandoning
// the old with --fresh), and a changed --max-iterations. Pure: records in, records to stage out.
import type { Config } from '../../config/types.js';
import type { Lifecycle } from '../../machines/lifecycles/registry.js';
import type { Protection } from '../../machines/protect/protection.js';
import type { WorkContext, WorkInput } from '../../machines/work/work-context.js';
import { lifecycleOf, startOf, unfinishedRun } from '../fold/journal-runs.js';
import type { FoldCheckpoint } from '../fold/fold-checkpoint.js';
import type { RunFold } from '../fold/run-fold.js';
import { stateText } from '../fold/state-text.js';
import type { JournalRecord, RecordDraft, StartedRecord } from '../journal/record.js';
import { checkLastRun, foldCheckedRun, type LocateRecord } from './fold-checked-run.js';
import { routingDecisionFor } from '../projections/routing-sequences.js';

/** A run to start: its lifecycle and the machine's input (parsed config, prompts, spec files). */
export interface NewRun {
  lifecycle: Pick<Lifecycle, 'name' | 'version'>;
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
  }
  | {
    kind: 'start';
    run: string;
    mode: string;
    /** the unfinished run given up (--fresh), if any */
    abandoned: string | null;
    maxIterations: number;
    drafts: RecordDraft[];
  };

/**
 * Decide what `yoke run` does with the journal `records`: resume the unfinished run (journal
 * `run.resumed`, and `SET_MAX_ITERATIONS` when `--max-iterations` changes its cap), or start a new
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
    const fold = foldCheckedRun(records, started, locate, request.checkpoint ?? null);
    const context = fold.snapshot.context as WorkContext;
    const meta = { run: open, machine: started.machine, mv: started.mv };
    const drafts: RecordDraft[] = [{ ...meta, type: 'run.resumed', payload: { pid: request.pid } }];
    if (request.maxIterations !== undefined && context.maxIterations !== request.maxIterations) {
      drafts.push({ run: open, machine: lifecycle.name, mv: lifecycle.version, type: 'event', payload: { cause: null, event: { type: 'SET_MAX_ITERATIONS', max: request.maxIterations } } });
    }
    const protection = request.protection ?? null;
    if (protection !== null && context.protection !== undefined && context.protection.digest !== protection.digest) {
      drafts.push({ run: open, machine: lifecycle.name, mv: lifecycle.version, type: 'event', payload: { cause: null, event: { type: 'PROTECTION_REFRESHED', protection } } });
    }
    return { kind: 'resume', run: open, started, fold, iteration: context.iteration, state: stateText(fold.snapshot.value), drafts };
  }
  const start = request.start;
  if (!start) throw new Error('a new run needs its lifecycle and input');
  // `--fresh` leaves the last run behind deliberately; otherwise a new run must not follow a forged ending
  if (!request.fresh) checkLastRun(records, locate);
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
  // Only a baseline that protects something goes into the input: without one, the input is what older yokes journaled.
  const input: WorkInput = {
    ...start.input, config, run: request.runId, toolCallProof: true,
    // The block opens every prompt (inject), parallel lanes' too (they read the layer in their worktrees, docs/parallel.md).
    ...(start.contextLayer === true ? { contextLayer: { run: request.runId, inject: true as const } } : {}),
    ...(routing ? { routing } : {}),
    ...(protection !== null && (protection.patterns.length > 0 || protection.files.length > 0) ? { protection } : {}),
  };
  drafts.push({
    type: 'run.started', run: request.runId, machine: start.lifecycle.name, mv: start.lifecycle.version,
    payload: { mode: config.mode, input, argv: start.argv },
  });
  return { kind: 'start', run: request.runId, mode: config.mode, abandoned: open, maxIterations: config.maxIterations, drafts };
}

/** The config the unfinished run started with, as journaled in its `run.started` input (null: no unfinished run). */
export function journaledConfig(records: readonly JournalRecord[]): Config | null {
  const open = unfinishedRun(records);
  if (open === null) return null;
  const input = startOf(records, open).payload.input as { config?: Config } | undefined;
  return input?.config ?? null;
}
