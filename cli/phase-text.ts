// What a run is doing right now, in a few words, from the effect it has in flight.
import { effectInFlight, type LedgerBase } from '../store/projections/checkpoint-ledger.js';
import type { JournalRecord } from '../store/journal/record.js';

/** `worker agent`, `guard tests`, `committing`, … for an effect kind and its params. */
export function describePhase(kind: string, params: unknown): string {
  const p = (params ?? {}) as { role?: string; chunk?: number; kind?: string; name?: string; event?: string };
  switch (kind) {
    case 'agent.spawn':
      return `${p.role ?? 'agent'}${p.role === 'scoper' && p.chunk !== undefined ? ` (chunk ${p.chunk})` : ''} agent`;
    case 'check.run':
      return `${p.kind ?? 'check'} ${p.name ?? '?'}`;
    case 'acceptance.check':
      return 'acceptance check';
    case 'commit.create':
      return 'committing';
    case 'boundary.scan':
      return 'boundary check';
    case 'spec.restore':
      return 'restoring spec files';
    case 'baseline.capture':
      return 'capturing the baseline';
    case 'hook.fire':
      return `hook ${p.event ?? '?'}`;
    case 'worktree.create':
      return 'making its worktree';
    case 'candidate.commit':
      return 'committing its candidate';
    case 'candidate.rebase':
      return 'integration: rebasing onto the target';
    case 'candidate.reject':
      return 'integration: rejecting the candidate';
    case 'story.land':
      return 'integration: landing on the target';
    case 'worktree.remove':
      return 'removing its worktree';
    case 'wait.until': {
      const until = (params as { until?: number } | null)?.until;
      return `waiting out a rate limit${typeof until === 'number' ? ` until ${new Date(until).toISOString().slice(11, 19)} UTC` : ''}`;
    }
    default:
      return kind;
  }
}

/**
 * The phase of `run` at the end of `records`: its last effect still in flight, or null. `base`: the
 * checkpoint `records` were read from (null: they are every record).
 */
export function currentPhase(records: readonly JournalRecord[], run: string, base: LedgerBase | null = null): string | null {
  const effect = effectInFlight(records, run, base);
  return effect === null ? null : describePhase(effect.kind, effect.params);
}
