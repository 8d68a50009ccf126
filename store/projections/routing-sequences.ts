// The routing ledger (DESIGN §15): one sequence per finished run, folded from the journal, and the
// task class sequences are compared within.
import { createHash } from 'node:crypto';
import type { Config } from '../../config/types.js';
import type { RoutingSequence } from '../../machines/routing/routing-sequence.js';
import { economicChoice, type RoutingDecision } from '../../machines/routing/economic-choice.js';
import type { JournalRecord, StartedRecord } from '../journal/record.js';
import type { EffectParams, EffectResult } from '../../machines/effects.js';
import { pricedUsage } from '../../machines/price-usage.js';

/**
 * The class a run's sequences belong to: its lifecycle, the worker role, and a digest of its policy
 * (every gate and its command), so a profile is never judged on another kind of work.
 */
export function taskClassOf(config: Config): string {
  const gates = [
    ...config.guards.map((guard) => `guard ${guard.name} ${guard.command}`),
    ...config.periodics.map((periodic) => `periodic ${periodic.name} ${periodic.every} ${periodic.command}`),
    ...config.guardAfters.map((guard) => `guard-after ${guard.periodic} ${guard.name} ${guard.command}`),
    ...config.accepts.map((accept) => `accept ${accept.name} ${accept.command}`),
  ];
  const digest = createHash('sha256').update(gates.join('\n')).digest('hex').slice(0, 16);
  return `${config.mode}/worker/${digest}`;
}

/**
 * The sequences so far, told one record at a time (so `replay --verify` can stream): a loop, brute,
 * saga or goal run is one sequence, all its attempts counted to the profile of its first worker
 * call. Runs without profiles are not routing evidence and are skipped.
 */
export class RoutingLedger {
  private readonly sequences = new Map<string, RoutingSequence>();
  private readonly prices = new Map<string, Config['prices']>();
  private readonly calls = new Map<string, { run: string; role: string }>();

  /** Fold the next record of the journal. */
  feed(record: JournalRecord): void {
    const run = record.run ?? '';
    if (record.type === 'run.started') {
      const config = (record.payload.input as { config?: Config } | null)?.config;
      if (!config?.profiles) return;
      this.prices.set(run, config.prices);
      this.sequences.set(run, { run, taskClass: taskClassOf(config), profile: '', attempts: 0, accepted: false, complete: false, costUsd: 0, partial: false, durationMs: 0 });
      return;
    }
    const sequence = this.sequences.get(run);
    if (!sequence) return;
    if (record.type === 'run.finished') Object.assign(sequence, { complete: true, accepted: record.payload.exitCode === 0 });
    else if (record.type === 'effect.started' && record.payload.kind === 'agent.spawn' && !this.calls.has(record.payload.key)) {
      const params = record.payload.params as EffectParams<'agent.spawn'>;
      this.calls.set(record.payload.key, { run, role: params.role });
      if (params.role === 'worker') {
        sequence.attempts += 1;
        if (sequence.profile === '' && params.profile) sequence.profile = params.profile;
      }
    } else if (record.type === 'effect.completed' && record.payload.kind === 'agent.spawn' && this.calls.delete(record.payload.key)) {
      const result = record.payload.result as EffectResult<'agent.spawn'>;
      // The same pricing budgets and the usage ledger apply.
      const cost = pricedUsage(result.usage, this.prices.get(run))?.costUsd ?? null;
      sequence.costUsd = sequence.costUsd === null || cost === null ? null : sequence.costUsd + cost;
      sequence.durationMs += result.durationMs;
    } else if (record.type === 'effect.interrupted' && record.payload.kind === 'agent.spawn' && this.calls.delete(record.payload.key)) {
      sequence.partial = true;
    }
  }

  /** Every sequence so far that has a profile, in journal order. */
  list(): RoutingSequence[] {
    return [...this.sequences.values()].filter((sequence) => sequence.profile !== '').map((sequence) => ({
      ...sequence,
      // A call still running when its run ended (a crash) is partial too.
      partial: sequence.partial || [...this.calls.values()].some((call) => call.run === sequence.run && sequence.complete),
    }));
  }
}

/** Every run's sequence in `records`, in journal order. */
export function routingSequences(records: readonly JournalRecord[]): RoutingSequence[] {
  const ledger = new RoutingLedger();
  for (const record of records) ledger.feed(record);
  return ledger.list();
}

/** The economic decision for a run about to start with `config`, from the runs already in `records`. */
export function routingDecisionFor(records: readonly JournalRecord[], config: Config): RoutingDecision | null {
  if (config.routing?.kind !== 'economic') return null;
  return economicChoice(config, routingSequences(records), taskClassOf(config));
}

/**
 * `replay --verify` for a run's start: the routing decision journaled in its `run.started` must be
 * the one today's rules derive from the sequences before it (null: agreed, or no decision).
 */
export function routingDivergence(before: readonly RoutingSequence[], started: StartedRecord): { journal: unknown; machine: unknown } | null {
  const input = started.payload.input as { config?: Config; routing?: RoutingDecision } | null;
  const config = input?.config;
  if (!config || config.routing?.kind !== 'economic') return null;
  const derived = economicChoice(config, before, taskClassOf(config));
  return JSON.stringify(derived) === JSON.stringify(input.routing ?? null) ? null : { journal: input.routing ?? null, machine: derived };
}
