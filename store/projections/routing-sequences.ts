// The routing ledger (DESIGN §15): the sequences folded from the journal, and the task class
// sequences are compared within.
import { createHash } from 'node:crypto';
import type { Config } from '../../config/types.js';
import type { RoutingSequence } from '../../machines/routing/routing-sequence.js';
import { economicChoice, type RoutingDecision } from '../../machines/routing/economic-choice.js';
import { INFRASTRUCTURE_FAILURES, sequenceKey } from '../../machines/routing/sequence-route.js';
import type { JournalRecord, StartedRecord } from '../journal/record.js';
import type { EffectParams, EffectResult } from '../../machines/effects.js';
import { pricedUsage } from '../../machines/price-usage.js';
import { callSpend } from '../../machines/usage-totals.js';
import { unitOutcomes } from './unit-outcomes.js';

/**
 * The class a run's sequences belong to: its lifecycle, the worker role, and a digest of its policy
 * (every gate and its command), so a profile is never judged on another kind of work. `bySequence`
 * (runs that route by sequence): the policy also binds the review and the attempt bounds.
 */
export function taskClassOf(config: Config, bySequence = true): string {
  const gates = [
    ...config.guards.map((guard) => `guard ${guard.name} ${guard.command}`),
    ...config.periodics.map((periodic) => `periodic ${periodic.name} ${periodic.every} ${periodic.command}`),
    ...config.guardAfters.map((guard) => `guard-after ${guard.periodic} ${guard.name} ${guard.command}`),
    ...config.accepts.map((accept) => `accept ${accept.name} ${accept.command}`),
    ...(bySequence ? [
      `max-iterations ${config.maxIterations}`, `review ${config.review === true ? 'on' : 'off'}`, `max-story-attempts ${config.maxStoryAttempts ?? '-'}`,
      `judge-every ${config.judgeEvery ?? '-'}`, `max-judge-failures ${config.maxJudgeFailures}`, `max-chunks ${config.maxChunks}`,
    ] : []),
  ];
  const digest = createHash('sha256').update(gates.join('\n')).digest('hex').slice(0, 16);
  return `${config.mode}/worker/${digest}`;
}

/** Does this run's input say it routes by sequence (journaled `sequenceRouting`)? */
function routesBySequence(started: StartedRecord): boolean {
  return (started.payload.input as { sequenceRouting?: true } | null)?.sequenceRouting === true;
}

/** One run's part of the ledger while it is folded. */
interface RunEntry {
  started: StartedRecord;
  prices: Config['prices'];
  /** the whole run as one sequence (the rules of runs that do not route by sequence) */
  whole: RoutingSequence;
  /** one sequence per story, chunk, or the run, by sequence key, in the order of their first call */
  units: Map<string, RoutingSequence>;
  /** stories and saga: the run's records, folded once it ends to learn how each unit ended */
  records: JournalRecord[] | null;
}

function emptySequence(run: string, unit: string, taskClass: string): RoutingSequence {
  return { run, unit, taskClass, profile: '', attempts: 0, accepted: false, complete: false, costUsd: 0, unknownTokens: false, partial: false, infrastructure: false, durationMs: 0 };
}

/** A sequence after one more call: its (priced) cost and tokens, its time. */
function addCall(sequence: RoutingSequence, result: EffectResult<'agent.spawn'>, prices: Config['prices']): void {
  // The same pricing budgets and the usage ledger apply.
  const spend = callSpend(pricedUsage(result.usage, prices));
  sequence.costUsd = sequence.costUsd === null || spend.costUsd === null ? null : sequence.costUsd + spend.costUsd;
  sequence.unknownTokens ||= spend.tokens === null;
  sequence.durationMs += result.durationMs;
  sequence.infrastructure ||= result.classification !== undefined && INFRASTRUCTURE_FAILURES.includes(result.classification);
}

/**
 * The sequences so far, told one record at a time (so `replay --verify` can stream). Two views:
 * by run (a run is one sequence, counted to the profile of its first worker call: the rules of runs
 * journaled before routing followed sequences) and by sequence (each story of a stories run and
 * each chunk of a saga is its own sequence; loop, brute and goal runs are one). Runs without
 * profiles are not routing evidence and are skipped.
 */
export class RoutingLedger {
  private readonly runs = new Map<string, RunEntry>();
  private readonly calls = new Map<string, { run: string; unit: string }>();

  /** Fold the next record of the journal. */
  feed(record: JournalRecord): void {
    const run = record.run ?? '';
    if (record.type === 'run.started') {
      const config = (record.payload.input as { config?: Config } | null)?.config;
      if (!config?.profiles) return;
      const folded = config.mode === 'stories' || config.mode === 'saga';
      this.runs.set(run, {
        started: record, prices: config.prices, whole: emptySequence(run, 'run', taskClassOf(config, false)), units: new Map(), records: folded ? [] : null,
      });
      return;
    }
    const entry = this.runs.get(run);
    if (!entry) return;
    entry.records?.push(record);
    if (record.type === 'run.finished' || record.type === 'run.abandoned') this.end(entry, record.type === 'run.finished' && record.payload.exitCode === 0, record.type === 'run.finished');
    else if (record.type === 'effect.started' && record.payload.kind === 'agent.spawn' && !this.calls.has(record.payload.key)) {
      const params = record.payload.params as EffectParams<'agent.spawn'>;
      const unit = sequenceKey({ story: params.story ?? null, chunk: params.chunk ?? null });
      this.calls.set(record.payload.key, { run, unit });
      const sequence = entry.units.get(unit) ?? emptySequence(run, unit, taskClassOf((entry.started.payload.input as { config: Config }).config));
      entry.units.set(unit, sequence);
      for (const counted of [entry.whole, sequence]) {
        if (params.role !== 'worker') continue;
        counted.attempts += 1;
        if (counted.profile === '' && params.profile) counted.profile = params.profile;
      }
    } else if (record.type === 'effect.completed' && record.payload.kind === 'agent.spawn') {
      const call = this.calls.get(record.payload.key);
      if (!call) return;
      this.calls.delete(record.payload.key);
      const result = record.payload.result as EffectResult<'agent.spawn'>;
      addCall(entry.whole, result, entry.prices);
      const sequence = entry.units.get(call.unit);
      if (sequence) addCall(sequence, result, entry.prices);
    } else if (record.type === 'effect.interrupted' && record.payload.kind === 'agent.spawn') {
      const call = this.calls.get(record.payload.key);
      if (!call) return;
      this.calls.delete(record.payload.key);
      entry.whole.partial = true;
      const sequence = entry.units.get(call.unit);
      if (sequence) sequence.partial = true;
    }
  }

  /**
   * A run ended (finished, or abandoned by `--fresh`): the whole-run sequence is complete when it
   * finished; a story or chunk is complete when it ended (passed, blocked, judged), a loop, brute or
   * goal run's one sequence when the run finished.
   */
  private end(entry: RunEntry, succeeded: boolean, finished: boolean): void {
    if (finished) Object.assign(entry.whole, { complete: true, accepted: succeeded });
    const outcomes = entry.records === null ? null : unitOutcomes(entry.started, entry.records);
    entry.records = null;
    for (const [unit, sequence] of entry.units) {
      if (outcomes === null) {
        if (unit === 'run' && finished) Object.assign(sequence, { complete: true, accepted: succeeded });
        continue;
      }
      const outcome = outcomes.get(unit);
      if (outcome !== undefined) Object.assign(sequence, { complete: true, accepted: outcome === 'accepted' });
    }
  }

  /**
   * Every sequence so far that has a profile, in journal order: per story and chunk (`bySequence`,
   * the default), or one per run (the rules of runs journaled before routing followed sequences).
   */
  list(bySequence = true): RoutingSequence[] {
    const open = [...this.calls.values()];
    const sequences = [...this.runs.values()].flatMap((entry) => (bySequence ? [...entry.units.values()] : [entry.whole]));
    return sequences.filter((sequence) => sequence.profile !== '').map((sequence) => ({
      ...sequence,
      // A call still running when its sequence ended (a crash) is partial too.
      partial: sequence.partial || (sequence.complete && open.some((call) => call.run === sequence.run && (!bySequence || call.unit === sequence.unit))),
    }));
  }
}

/** Every sequence in `records`, in journal order (per story and chunk unless `bySequence` is false). */
export function routingSequences(records: readonly JournalRecord[], bySequence = true): RoutingSequence[] {
  const ledger = new RoutingLedger();
  for (const record of records) ledger.feed(record);
  return ledger.list(bySequence);
}

/** The economic decision for a run about to start with `config`, from the runs already in `records`. */
export function routingDecisionFor(records: readonly JournalRecord[], config: Config): RoutingDecision | null {
  if (config.routing?.kind !== 'economic') return null;
  return economicChoice(config, routingSequences(records), taskClassOf(config), true);
}

/**
 * `replay --verify` for a run's start: the routing decision journaled in its `run.started` must be
 * the one today's rules derive from the sequences of `ledger` before it (null: agreed, or no
 * decision), under the rules its input names.
 */
export function routingDivergence(ledger: RoutingLedger, started: StartedRecord): { journal: unknown; machine: unknown } | null {
  const input = started.payload.input as { config?: Config; routing?: RoutingDecision } | null;
  const config = input?.config;
  if (!config || config.routing?.kind !== 'economic') return null;
  const bySequence = routesBySequence(started);
  const before = ledger.list(bySequence).filter((sequence) => sequence.run !== started.run);
  const derived = economicChoice(config, before, taskClassOf(config, bySequence), bySequence);
  return JSON.stringify(derived) === JSON.stringify(input.routing ?? null) ? null : { journal: input.routing ?? null, machine: derived };
}
