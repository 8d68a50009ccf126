// What a run is doing right now, in a few words, from the effect it has in flight.
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

/** The phase of `run` at the end of `records`: its last effect still in flight, or null. */
export function currentPhase(records: readonly JournalRecord[], run: string): string | null {
  const ended = new Set<string>();
  for (let index = records.length - 1; index >= 0; index -= 1) {
    const record = records[index] as JournalRecord;
    if (record.run !== run) continue;
    if (record.type === 'run.started' || record.type === 'run.finished' || record.type === 'run.interrupted' || record.type === 'run.paused') return null;
    if (record.type === 'effect.completed' || record.type === 'effect.interrupted' || record.type === 'effect.failed') ended.add(record.payload.key);
    if (record.type === 'effect.started') return ended.has(record.payload.key) ? null : describePhase(record.payload.kind, record.payload.params);
  }
  return null;
}
