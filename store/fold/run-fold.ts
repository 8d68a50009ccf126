// Folds one run's journal records through its machine: the state, and which effects are owed.
import type { AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { awaitsEvent, checkedCompletionEvent, interruptionEvent, machineEventSchema, type MachineEvent } from '../../machines/effect-events.js';
import { effectSchemas, type EffectKind, type EffectRequest, type EffectResult } from '../../machines/effects.js';
import { MachineStepper } from './machine-stepper.js';
import type { JournalRecord, Payload } from '../journal/record.js';
import { sameJson } from './same-json.js';
import { YokeError } from '../../errors/yoke-error.js';

/** An effect request with its stable idempotency key `<run>/<seq>/<index>`. */
export interface KeyedRequest {
  key: string;
  /** seq of the record whose fold emitted it */
  seq: number;
  index: number;
  request: EffectRequest;
}

/** What the journal says about one request. */
export interface EffectStatus {
  request: KeyedRequest;
  attempts: number;
  completed: { result: unknown; seq: number } | null;
  interrupted: { reason: string; seq: number } | null;
  failures: string[];
  /** the machine has been told (an `event` record with this cause exists) */
  consumed: boolean;
  process: { pid: number; startTime: string | null } | null;
}

/**
 * The incremental fold of one run. `apply()` takes records in journal order; the snapshot is the
 * machine's state after them and `outstanding` lists the requests not yet resolved, oldest first.
 * Raw XState actions are never kept: only `request` actions, mapped to KeyedRequests.
 */
export class RunFold {
  snapshot: AnyMachineSnapshot;
  readonly effects = new Map<string, EffectStatus>();
  outstanding: KeyedRequest[] = [];
  finished: Payload<'run.finished'> | null = null;
  abandoned = false;
  /** every record applied, for views */
  lastSeq: number;
  /** pure transitions of `machine` (one inert actor scope for the whole fold) */
  readonly stepper: MachineStepper;
  /** keys settled by the last `apply()`, dropped at the next one (only with `forget`) */
  private settled: string[] = [];

  /**
   * `forget`, when given, makes the fold forget each effect once it is settled (its outcome told
   * to the machine, or nothing to tell): the status is handed to `forget` and dropped from
   * `effects` at the next `apply()`, so a streamed fold of a long run keeps only what is still
   * open. A later record about a forgotten effect is then refused as one about an effect the
   * machine never requested. Views that read `effects` afterwards (summaries) must not pass it.
   */
  constructor(
    readonly machine: AnyStateMachine,
    readonly started: Extract<JournalRecord, { type: 'run.started' }>,
    private readonly onStep?: (step: FoldStep) => void,
    private readonly forget?: (status: EffectStatus) => void,
    restored?: FoldState,
  ) {
    this.stepper = new MachineStepper(machine, started.payload.input);
    if (restored) {
      this.snapshot = this.stepper.restore(restored.snapshot);
      this.lastSeq = restored.lastSeq;
      for (const status of restored.open) this.effects.set(status.request.key, structuredClone(status));
      this.outstanding = restored.open.map((status) => this.effects.get(status.request.key)?.request as KeyedRequest);
      this.finished = restored.finished;
      this.abandoned = restored.abandoned;
      return;
    }
    const [snapshot, actions] = this.stepper.initial(started.payload.input);
    this.snapshot = snapshot;
    this.lastSeq = started.seq;
    this.register(started.seq, actions);
    onStep?.({ record: started, before: null, after: snapshot, requests: this.outstanding.slice() });
  }

  /**
   * What a checkpoint keeps of this fold (JSON): the machine's persisted snapshot and the effects
   * still outstanding. Settled effects are left out: the runner never looks at them again, and a
   * later record about one is refused (as a streamed fold refuses it).
   */
  state(): FoldState {
    return {
      snapshot: this.machine.getPersistedSnapshot(this.snapshot),
      lastSeq: this.lastSeq,
      open: this.outstanding.map((keyed) => this.effects.get(keyed.key) as EffectStatus),
      finished: this.finished,
      abandoned: this.abandoned,
    };
  }

  get run(): string {
    return this.started.run ?? '';
  }

  /** Is the machine still running (not in a final state)? */
  get active(): boolean {
    return this.snapshot.status === 'active';
  }

  /**
   * Apply the next record of this run. Throws a `workspace` YokeError when it contradicts the fold.
   * `checked`: `checkRecord` (verify-run.ts) has just found the record agreeing with this fold, so
   * an effect's params and an event are not compared as JSON a second time (every other check is made).
   */
  apply(record: JournalRecord, checked = false): void {
    if (this.settled.length > 0) this.dropSettled();
    this.lastSeq = record.seq;
    switch (record.type) {
      case 'event':
        return this.applyEvent(record, checked);
      case 'effect.started': {
        const status = this.expect(record, record.payload.key);
        if (status.request.request.kind !== record.payload.kind || (!checked && !sameJson(status.request.request.params, record.payload.params, canonical))) {
          throw this.diverged(record, `effect ${record.payload.key} was journaled as ${record.payload.kind} with other parameters than today's machine requests`);
        }
        status.attempts += 1;
        return;
      }
      case 'effect.completed': {
        const status = this.expect(record, record.payload.key);
        const kind = status.request.request.kind;
        const result = effectSchemas[kind].result.safeParse(record.payload.result);
        if (!result.success) throw this.diverged(record, `the result of ${kind} ${record.payload.key} does not match its schema`);
        status.completed = { result: result.data, seq: record.seq };
        if (!awaitsEvent(status.request.request)) this.resolve(status.request.key);
        return;
      }
      case 'effect.interrupted': {
        const status = this.expect(record, record.payload.key);
        status.interrupted = { reason: record.payload.reason, seq: record.seq };
        if (interruptionEvent(status.request.request, record.payload.reason) === null) this.resolve(status.request.key);
        return;
      }
      case 'effect.failed':
        this.expect(record, record.payload.key).failures.push(record.payload.message);
        return;
      case 'process.spawned':
        this.expect(record, record.payload.key).process = { pid: record.payload.pid, startTime: record.payload.startTime };
        return;
      case 'run.finished':
        this.finished = record.payload;
        return;
      case 'run.abandoned':
        this.abandoned = true;
        return;
      case 'run.started':
        throw this.diverged(record, 'a second run.started for the same run');
      case 'run.resumed':
      case 'run.interrupted':
      case 'run.paused':
      case 'journal.repaired':
      case 'checkpoint':
        return;
      // Tool-call control records: shown and verified by replay, never events of the machine.
      case 'tool.requested':
      case 'tool.ruled':
      case 'tool.answered':
      case 'tool.revoked':
        return;
      // Workspace records (run: null): never part of a run's fold.
      case 'stash.begun':
      case 'stash.cleared':
      case 'stash.ended':
      case 'stash.pushed':
      case 'stash.restored':
      case 'protect.baseline':
      case 'protect.refreshed':
        return;
    }
  }

  private applyEvent(record: Extract<JournalRecord, { type: 'event' }>, checked: boolean): void {
    if (!this.active) throw this.diverged(record, 'an event after the machine reached a final state');
    const event = this.expectedOutcome(record, checked) ?? this.checkEvent(record);
    const before = this.snapshot;
    const [snapshot, actions] = this.stepper.step(this.snapshot, event);
    this.snapshot = snapshot;
    const firstNew = this.outstanding.length;
    this.register(record.seq, actions);
    this.onStep?.({ record, before, after: snapshot, requests: this.outstanding.slice(firstNew) });
  }

  /**
   * The common case, checked without parsing the event again: it answers an effect whose outcome
   * was journaled (and validated) and is exactly the event that outcome produces. Returns that
   * event, or null to let `checkEvent` decide (and word the refusal). `checked`: the event was just
   * found equal to that outcome (`checkRecord`).
   */
  private expectedOutcome(record: Extract<JournalRecord, { type: 'event' }>, checked: boolean): MachineEvent | null {
    const cause = record.payload.cause;
    if (cause === null) return null;
    const status = this.effects.get(cause);
    if (!status || status.consumed) return null;
    const expected = outcomeEvent(status);
    if (expected === null || (!checked && !sameJson(expected, record.payload.event, canonical))) return null;
    status.consumed = true;
    this.resolve(cause);
    return expected;
  }

  /** Validate an event record in full; throws naming what does not fit. */
  private checkEvent(record: Extract<JournalRecord, { type: 'event' }>): MachineEvent {
    const parsed = machineEventSchema.safeParse(record.payload.event);
    if (!parsed.success) throw this.diverged(record, `event ${record.payload.event.type} is not one this machine knows`);
    if (record.payload.cause !== null) {
      const status = this.expect(record, record.payload.cause);
      // The event must be exactly what the cause's outcome produces, and be told only once:
      // a duplicated or substituted event would be folded as a different fact.
      const expected = outcomeEvent(status);
      if (status.consumed) throw this.diverged(record, `the machine was already told the outcome of effect ${status.request.key}`);
      if (expected === null || !sameJson(expected, parsed.data, canonical)) {
        throw this.diverged(record, `event ${parsed.data.type} is not the outcome journaled for effect ${status.request.key}`);
      }
      status.consumed = true;
      this.resolve(record.payload.cause);
    }
    return parsed.data;
  }

  private register(seq: number, actions: ReadonlyArray<{ type: string; params?: unknown }>): void {
    let index = 0;
    for (const action of actions) {
      if (action.type !== 'request') continue;
      const keyed: KeyedRequest = { key: `${this.run}/${seq}/${index}`, seq, index, request: action.params as EffectRequest };
      index += 1;
      this.outstanding.push(keyed);
      this.effects.set(keyed.key, {
        request: keyed, attempts: 0, completed: null, interrupted: null, failures: [], consumed: false, process: null,
      });
    }
  }

  private resolve(key: string): void {
    this.outstanding = this.outstanding.filter((keyed) => keyed.key !== key);
    if (this.forget) this.settled.push(key);
  }

  private dropSettled(): void {
    for (const key of this.settled) {
      const status = this.effects.get(key);
      if (!status) continue;
      this.forget?.(status);
      this.effects.delete(key);
    }
    this.settled = [];
  }

  private expect(record: JournalRecord, key: string): EffectStatus {
    const status = this.effects.get(key);
    if (!status) throw this.diverged(record, `it refers to effect ${key}, which the machine never requested`);
    return status;
  }

  private diverged(record: JournalRecord, why: string): YokeError {
    return new YokeError(
      'workspace',
      `journal record ${record.seq} (${record.type}) does not fit run ${this.run}: ${why}; the journal was edited or written by an incompatible yoke — run \`yoke run --fresh\` to start a new run.`,
    );
  }
}

/**
 * Where an outcome keeps the event it tells the machine, once built: a symbol-keyed property, which
 * JSON, `canonical` and `structuredClone` (checkpoints, views, comparisons) all leave out. A WeakMap
 * did the same at a cost: one entry per effect of a long fold, and ephemeron work in every GC.
 */
const OUTCOME_EVENT = Symbol('outcome event');
type Outcome = NonNullable<EffectStatus['completed'] | EffectStatus['interrupted']> & { [OUTCOME_EVENT]?: MachineEvent | null };

/**
 * The event an effect's journaled outcome tells the machine (null: no outcome yet, or nothing to
 * tell). Remembered per outcome, so checking an event and then folding it builds it once. A
 * completed outcome's result is the one `apply` checked against its kind's schema.
 */
export function outcomeEvent(status: EffectStatus): MachineEvent | null {
  const outcome: Outcome | null = status.completed ?? status.interrupted;
  if (outcome === null) return null;
  const known = outcome[OUTCOME_EVENT];
  if (known !== undefined) return known;
  const event = status.completed
    ? checkedCompletionEvent(status.request.request, status.completed.result as EffectResult<EffectKind>)
    : status.interrupted ? interruptionEvent(status.request.request, status.interrupted.reason) : null;
  Object.defineProperty(outcome, OUTCOME_EVENT, { value: event, enumerable: false });
  return event;
}

/** A fold as a checkpoint keeps it (plain JSON; `RunFold.state()` and the constructor's `restored`). */
export interface FoldState {
  /** the machine's persisted snapshot (`machine.getPersistedSnapshot`) */
  snapshot: unknown;
  lastSeq: number;
  /** the outstanding effects' statuses, oldest first */
  open: EffectStatus[];
  finished: Payload<'run.finished'> | null;
  abandoned: boolean;
}

/** One fold step, for replay views. */
export interface FoldStep {
  record: JournalRecord;
  before: AnyMachineSnapshot | null;
  after: AnyMachineSnapshot;
  requests: KeyedRequest[];
}

/** Deterministic JSON (sorted keys) for comparing journaled params with re-derived ones. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner;
    return Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}
