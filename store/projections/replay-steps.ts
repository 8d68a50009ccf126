// Folds one recorded run into the steps `yoke replay` shows. Pure: the journal's records go in,
// views come out; nothing is executed (this module cannot reach an effect executor, and
// tests/cli/commands/replay-imports.test.ts keeps it that way).
import { getInitialMicrosteps, type AnyMachineSnapshot, type AnyStateMachine } from 'xstate';
import type { MachineEvent } from '../../machines/effect-events.js';
import type { EffectKind, EffectResult, Usage } from '../../machines/effects.js';
import { describeRequest, describeResult, reportedDuration, reportedUsage } from './effect-summary.js';
import { lifecycleForRun } from '../fold/machine-versions.js';
import type { JournalRecord, RecordType } from '../journal/record.js';
import { RunFold, type EffectStatus, type FoldStep } from '../fold/run-fold.js';
import { stateText } from '../fold/state-text.js';
import { addCall, NO_USAGE, type UsageTotals } from '../../machines/usage-totals.js';
import type { Config } from '../../config/types.js';

type StartedRecord = Extract<JournalRecord, { type: 'run.started' }>;

/** The effect a step reports on. */
export interface StepEffect {
  key: string;
  kind: EffectKind;
  /** `agent.spawn worker #2`, `check.run guard tests`, … */
  label: string;
  /** `exit 0`, `FAIL (exit 1)`, `interrupted: …` */
  outcome: string;
  /** how many times it was started (more than 1 after a crash with the `retry` policy) */
  attempts: number;
  /** as the result reports it (agents, checks), else from `effect.started` to its result */
  durationMs: number | null;
}

/** One line of a replay: a machine transition, or a record about the run (resumed, interrupted, …). */
export interface ReplayStep {
  seq: number;
  ts: string;
  /** milliseconds since the run started */
  elapsedMs: number;
  record: RecordType;
  /** the machine event for `event` records; the record type otherwise */
  event: string;
  /** state before (null for `run.started`) and after */
  from: string | null;
  to: string;
  /** transient states passed through on the way (eventless transitions), in order */
  via: string[];
  effect: StepEffect | null;
  /** an agent call's reported usage (null: not an agent call, or usage unknown) */
  usage: Usage | null;
  /** effects the machine asked for at this step */
  requested: Array<{ key: string; label: string }>;
  /** a short note for records that are not transitions (`SIGINT`, `pid 4242`, …) */
  detail: string | null;
}

/** How the run ended (or where it stands), with its totals. */
export interface ReplayOutcome {
  status: 'finished' | 'abandoned' | 'unfinished';
  state: string;
  exitCode: number | null;
  reason: string | null;
  /** agent calls that ended (completed, or cut short), counted as the ledger and the budgets count them */
  agentCalls: number;
  /** tokens and cost of the calls that reported them (priced by the run's `price` directives) */
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** calls whose tokens / cost are unknown: the figures above are lower bounds then */
  unknownUsage: number;
  unknownCost: number;
  durationMs: number;
}

/** A run replayed from its journal records. */
export interface ReplayedRun {
  run: string;
  mode: string;
  machine: string;
  version: number | null;
  startedAt: string;
  /** seq of the last record folded */
  lastSeq: number;
  steps: ReplayStep[];
  outcome: ReplayOutcome;
  fold: RunFold;
}

/**
 * Fold the records of the run `started` (up to seq `until` when given) with the machine version
 * it was recorded with. Throws a `workspace` YokeError when a record contradicts the fold.
 */
export function replayRun(records: Iterable<JournalRecord>, started: StartedRecord, until = Infinity): ReplayedRun {
  const steps: ReplayStep[] = [];
  const replay = new RunReplay(started, (step) => void steps.push(step));
  for (const record of records) {
    if (record.seq > until) break;
    replay.feed(record);
  }
  return { ...replay.header(), lastSeq: replay.fold.lastSeq, steps, outcome: replay.outcome(), fold: replay.fold };
}

/** What a replay's header shows about the run. */
export type RunHeader = Pick<ReplayedRun, 'run' | 'mode' | 'machine' | 'version' | 'startedAt'>;

/** The header of the run started by `started`. */
export function runHeader(started: StartedRecord): RunHeader {
  return { run: started.run ?? '', mode: started.payload.mode, machine: started.machine ?? '?', version: started.mv, startedAt: started.ts };
}

/**
 * The same fold, told one record at a time, each step handed to `emit` as soon as it is known and
 * not kept: `yoke replay` streams a journal of any length through it.
 */
export class RunReplay {
  readonly fold: RunFold;
  private readonly machine: AnyStateMachine;
  private readonly startedAt: number;
  private readonly startTimes = new Map<string, number>();
  private readonly resultTimes = new Map<string, number>();
  /** the fold's last transition, set by its `onStep` during `apply()` */
  private told: FoldStep | null = null;
  private lastElapsedMs = 0;
  /** the run's `price` directives: its calls are counted as the ledger and the budgets count them */
  private readonly prices: Config['prices'];
  /** usage of the agent calls the fold has forgotten */
  private usage: UsageTotals = NO_USAGE;

  /** `forgetSettled`: let the fold drop settled effects (see RunFold), for journals of any length. */
  constructor(readonly started: StartedRecord, private readonly emit: (step: ReplayStep) => void, forgetSettled = false) {
    this.machine = lifecycleForRun(started).machine;
    this.prices = (started.payload.input as { config?: Pick<Config, 'prices'> } | null)?.config?.prices;
    this.startedAt = Date.parse(started.ts);
    this.fold = new RunFold(this.machine, started, (step) => {
      this.told = step;
    }, !forgetSettled ? undefined : (status) => {
      // A settled effect is shown already; keep only its share of the totals.
      this.usage = this.count(this.usage, status);
      this.startTimes.delete(status.request.key);
      this.resultTimes.delete(status.request.key);
    });
    this.push({
      ...this.base(started), event: 'run.started', from: null, to: stateText(this.fold.snapshot.value),
      via: initialVia(this.machine, started.payload.input), effect: null, usage: null,
      requested: this.fold.outstanding.map((keyed) => ({ key: keyed.key, label: describeRequest(keyed.request) })), detail: started.payload.mode,
    });
  }

  /** The totals with one more effect counted: an agent call that ended (completed, or cut short: unknown). */
  private count(totals: UsageTotals, status: EffectStatus): UsageTotals {
    const { request, completed, interrupted } = status;
    if (request.request.kind !== 'agent.spawn' || (!completed && !interrupted)) return totals;
    const usage = completed ? reportedUsage(request.request, completed.result, this.prices) : null;
    return addCall(totals, { usage, durationMs: completed ? reportedDuration(completed.result) : null });
  }

  /** What the run is, for a header. */
  header(): RunHeader {
    return runHeader(this.started);
  }

  /** How the run ended, or where it stands after the records fed so far. */
  outcome(): ReplayOutcome {
    let totals = this.usage;
    for (const status of this.fold.effects.values()) totals = this.count(totals, status);
    return outcomeOf(this.fold, totals, this.lastElapsedMs);
  }

  /** Fold the next record of the journal (records of other runs are skipped). */
  feed(record: JournalRecord): void {
    const { fold, started } = this;
    if (record.type === 'journal.repaired' && record.seq > started.seq && !fold.finished && !fold.abandoned) {
      // A workspace record, but it tells this run's story: a crash tore the line after the last one above.
      this.note(record, `${'line' in record.payload ? `torn line ${record.payload.line}` : `torn record at byte ${record.payload.offset}`} cut off (${record.payload.droppedBytes} bytes)`);
      return;
    }
    if (record.seq <= started.seq || record.run !== started.run) return;
    const before = fold.snapshot;
    this.told = null;
    fold.apply(record);
    switch (record.type) {
      case 'event': {
        const step = this.told as FoldStep | null; // set by onStep during apply()
        const cause = record.payload.cause === null ? undefined : fold.effects.get(record.payload.cause);
        this.push({
          ...this.base(record), event: record.payload.event.type, from: stateText(before.value), to: stateText(fold.snapshot.value),
          via: viaStates(fold, before, record.payload.event as MachineEvent),
          effect: cause ? this.stepEffect(cause) : null,
          usage: cause?.completed ? reportedUsage(cause.request.request, cause.completed.result, this.prices) : null,
          requested: (step?.requests ?? []).map((keyed) => ({ key: keyed.key, label: describeRequest(keyed.request) })),
          detail: record.payload.event.type === 'SET_MAX_ITERATIONS' ? `max ${String(record.payload.event.max)}` : null,
        });
        break;
      }
      case 'effect.started':
        this.startTimes.set(record.payload.key, Date.parse(record.ts));
        break;
      case 'effect.completed':
      case 'effect.interrupted': {
        this.resultTimes.set(record.payload.key, Date.parse(record.ts));
        // Fire-and-forget effects (hooks) tell the machine nothing: their outcome is a step of its own.
        const status = fold.effects.get(record.payload.key);
        if (status && !fold.outstanding.some((keyed) => keyed.key === status.request.key) && !status.consumed) {
          this.note(record, null, this.stepEffect(status));
        }
        break;
      }
      case 'effect.failed':
        this.note(record, `${record.payload.kind}: ${record.payload.message}`);
        break;
      case 'run.resumed':
        this.note(record, `pid ${record.payload.pid}`);
        break;
      case 'run.interrupted':
        this.note(record, record.payload.signal);
        break;
      case 'run.abandoned':
        this.note(record, record.payload.reason);
        break;
      case 'run.finished':
        this.note(record, `${record.payload.reason}, exit ${record.payload.exitCode}`);
        break;
      // A checkpoint is a cache's receipt, not a step of the run: replay looks the same with or without one.
      case 'checkpoint':
      case 'process.spawned':
        break;
      default: {
        // Other records about the run (a budget pause, and any added later) are shown as they are.
        const reason = (record.payload as { reason?: unknown }).reason;
        this.note(record, typeof reason === 'string' ? reason : JSON.stringify(record.payload));
        break;
      }
    }
  }

  private push(step: ReplayStep): void {
    this.lastElapsedMs = step.elapsedMs;
    this.emit(step);
  }

  private base(record: JournalRecord): Pick<ReplayStep, 'seq' | 'ts' | 'elapsedMs' | 'record'> {
    return { seq: record.seq, ts: record.ts, elapsedMs: Date.parse(record.ts) - this.startedAt, record: record.type };
  }

  /** A record that changes no state, shown in the state it happened in. */
  private note(record: JournalRecord, detail: string | null, effect: StepEffect | null = null): void {
    const now = stateText(this.fold.snapshot.value);
    this.push({ ...this.base(record), event: record.type, from: now, to: now, via: [], effect, usage: null, requested: [], detail });
  }

  private stepEffect(status: EffectStatus): StepEffect {
    return stepEffect(status, this.startTimes, this.resultTimes);
  }
}

function stepEffect(status: EffectStatus, startTimes: ReadonlyMap<string, number>, resultTimes: ReadonlyMap<string, number>): StepEffect {
  const { request, key } = status.request;
  const startedAt = startTimes.get(key);
  const resultAt = resultTimes.get(key);
  const outcome = status.completed
    ? describeResult(request, status.completed.result as EffectResult<EffectKind>)
    : status.interrupted ? `interrupted: ${status.interrupted.reason}` : 'pending';
  const reported = status.completed ? reportedDuration(status.completed.result) : null;
  const measured = startedAt !== undefined && resultAt !== undefined ? resultAt - startedAt : null;
  return { key, kind: request.kind, label: describeRequest(request), outcome, attempts: status.attempts, durationMs: reported ?? measured };
}

function initialVia(machine: AnyStateMachine, input: unknown): string[] {
  const values = getInitialMicrosteps(machine, input).map(([snapshot]) => stateText(snapshot.value));
  return values.slice(0, -1);
}

function viaStates(fold: RunFold, before: AnyMachineSnapshot, event: MachineEvent): string[] {
  if (before.status !== 'active') return [];
  const values = fold.stepper.microsteps(before, event).map((snapshot) => stateText(snapshot.value));
  return values.slice(0, -1);
}

function outcomeOf(fold: RunFold, totals: UsageTotals, durationMs: number): ReplayOutcome {
  return {
    status: fold.finished ? 'finished' : fold.abandoned ? 'abandoned' : 'unfinished',
    state: stateText(fold.snapshot.value),
    exitCode: fold.finished?.exitCode ?? null,
    reason: fold.finished?.reason ?? null,
    agentCalls: totals.calls,
    inputTokens: totals.knownInputTokens,
    outputTokens: totals.knownOutputTokens,
    costUsd: totals.knownCostUsd,
    unknownUsage: totals.unknownTokenCalls,
    unknownCost: totals.unknownCostCalls,
    durationMs,
  };
}
