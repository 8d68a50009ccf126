// A run's timeline as text: one line per machine step, with the effect it answered.
import type { EffectResult } from '../machines/effects.js';
import type { FoldStep } from '../store/run-fold.js';

/** Render fold steps of one run as aligned lines. */
export function renderTimeline(steps: readonly FoldStep[]): string[] {
  const start = steps[0] ? Date.parse(steps[0].record.ts) : 0;
  const lines = ['   seq     time  transition                          event'];
  for (const step of steps) {
    const t = `+${((Date.parse(step.record.ts) - start) / 1000).toFixed(2)}s`;
    const before = step.before ? stateName(step.before.value) : '·';
    const after = stateName(step.after.value);
    const what = step.record.type === 'event' ? describeEvent(step.record.payload.event) : step.record.type;
    lines.push(`${String(step.record.seq).padStart(6)} ${t.padStart(8)}  ${`${before} → ${after}`.padEnd(34)}  ${what}`);
  }
  return lines;
}

function describeEvent(event: { type: string; [key: string]: unknown }): string {
  const result = event.result as Record<string, unknown> | undefined;
  switch (event.type) {
    case 'AGENT_EXITED': {
      const r = result as EffectResult<'agent.spawn'>;
      const tokens = r.usage ? ` ${(r.usage.inputTokens ?? 0) + (r.usage.outputTokens ?? 0)} tok` : '';
      return `AGENT_EXITED ${r.outcome === 'exited' ? `exit ${r.exitCode ?? '?'}` : r.outcome} ${(r.durationMs / 1000).toFixed(1)}s${tokens}`;
    }
    case 'CHECK_FINISHED': {
      const r = result as EffectResult<'check.run'>;
      return `CHECK_FINISHED ${r.outcome === 'exited' ? `exit ${r.exitCode ?? '?'}` : r.outcome}`;
    }
    case 'NOTES_READ':
      return `NOTES_READ ${String((result as EffectResult<'notes.read'>).firstLine)}`;
    case 'BOUNDARY_SCANNED':
      return `BOUNDARY_SCANNED ${(result as EffectResult<'boundary.scan'>).changed.length} changed`;
    case 'COMMITTED': {
      const sha = (result as EffectResult<'commit.create'>).sha;
      return `COMMITTED ${sha ? sha.slice(0, 10) : '(nothing)'}`;
    }
    default:
      return event.type;
  }
}

function stateName(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
