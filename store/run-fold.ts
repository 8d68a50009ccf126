// Folds one run's journal records through its machine: the state, and which effects are owed.
import { initialTransition, transition, type AnyMachineSnapshot, type AnyStateMachine } from 'xstate';
import { awaitsEvent, completionEvent, interruptionEvent, machineEventSchema } from '../machines/effect-events.js';
import { effectSchemas, type EffectKind, type EffectRequest, type EffectResult } from '../machines/effects.js';
import type { JournalRecord, Payload } from './record.js';
import { YokeError } from './yoke-error.js';

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

  constructor(
    readonly machine: AnyStateMachine,
    readonly started: Extract<JournalRecord, { type: 'run.started' }>,
    private readonly onStep?: (step: FoldStep) => void,
  ) {
    const [snapshot, actions] = initialTransition(machine, started.payload.input);
    this.snapshot = snapshot;
    this.lastSeq = started.seq;
    this.register(started.seq, actions);
    onStep?.({ record: started, before: null, after: snapshot, requests: this.outstanding.slice() });
  }

  get run(): string {
    return this.started.run ?? '';
  }

  /** Is the machine still running (not in a final state)? */
  get active(): boolean {
    return this.snapshot.status === 'active';
  }

  /** Apply the next record of this run. Throws a `workspace` YokeError when it contradicts the fold. */
  apply(record: JournalRecord): void {
    this.lastSeq = record.seq;
    switch (record.type) {
      case 'event':
        return this.applyEvent(record);
      case 'effect.started': {
        const status = this.expect(record, record.payload.key);
        if (status.request.request.kind !== record.payload.kind || canonical(status.request.request.params) !== canonical(record.payload.params)) {
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
        return;
      // Workspace records (run: null): never part of a run's fold.
      case 'stash.begun':
      case 'stash.cleared':
      case 'stash.ended':
      case 'stash.pushed':
      case 'stash.restored':
        return;
    }
  }

  private applyEvent(record: Extract<JournalRecord, { type: 'event' }>): void {
    if (!this.active) throw this.diverged(record, 'an event after the machine reached a final state');
    const parsed = machineEventSchema.safeParse(record.payload.event);
    if (!parsed.success) throw this.diverged(record, `event ${record.payload.event.type} is not one this machine knows`);
    if (record.payload.cause !== null) {
      const status = this.expect(record, record.payload.cause);
      // The event must be exactly what the cause's outcome produces, and be told only once:
      // a duplicated or substituted event would be folded as a different fact.
      const expected = status.completed
        ? completionEvent(status.request.request, status.completed.result as EffectResult<EffectKind>)
        : status.interrupted ? interruptionEvent(status.request.request, status.interrupted.reason) : null;
      if (status.consumed) throw this.diverged(record, `the machine was already told the outcome of effect ${status.request.key}`);
      if (expected === null || canonical(expected) !== canonical(parsed.data)) {
        throw this.diverged(record, `event ${parsed.data.type} is not the outcome journaled for effect ${status.request.key}`);
      }
      status.consumed = true;
      this.resolve(record.payload.cause);
    }
    const before = this.snapshot;
    const [snapshot, actions] = transition(this.machine, this.snapshot, parsed.data);
    this.snapshot = snapshot;
    const firstNew = this.outstanding.length;
    this.register(record.seq, actions);
    this.onStep?.({ record, before, after: snapshot, requests: this.outstanding.slice(firstNew) });
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
