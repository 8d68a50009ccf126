// Turns journal records into the human progress lines `yoke run` prints.
import type { EffectResult } from '../machines/effects.js';
import type { LoopContext } from '../machines/loop.js';
import type { JournalRecord } from '../store/record.js';
import type { RunFold } from '../store/run-fold.js';

/** One line for a record worth telling a human about, or null. */
export function describeProgress(record: JournalRecord, fold: RunFold): string | null {
  const context = fold.snapshot.context as Partial<LoopContext>;
  const of = `${context.iteration ?? '?'}/${context.maxIterations ?? '?'}`;
  switch (record.type) {
    case 'effect.started':
      if (record.payload.kind === 'agent.spawn') return `iteration ${of}: worker started`;
      if (record.payload.kind === 'commit.create') return `iteration ${of}: committing`;
      return null;
    case 'effect.completed': {
      const status = fold.effects.get(record.payload.key);
      const kind = status?.request.request.kind;
      if (kind === 'agent.spawn') {
        const result = record.payload.result as EffectResult<'agent.spawn'>;
        const how = result.outcome === 'exited' ? `exited ${result.exitCode ?? '?'}` : result.outcome;
        return `iteration ${of}: worker ${how} after ${seconds(result.durationMs)} (transcript .loop/${result.transcript})`;
      }
      if (kind === 'check.run' && status?.request.request.kind === 'check.run') {
        const result = record.payload.result as EffectResult<'check.run'>;
        const passed = result.outcome === 'exited' && result.exitCode === 0;
        const verdict = status.request.request.params.kind === 'periodic' ? `exit ${result.exitCode ?? result.outcome}` : passed ? 'pass' : 'FAIL';
        return `iteration ${of}: ${status.request.request.params.kind} ${status.request.request.params.name}: ${verdict} (${seconds(result.durationMs)})`;
      }
      if (kind === 'commit.create') {
        const result = record.payload.result as EffectResult<'commit.create'>;
        return result.sha ? `iteration ${of}: committed ${result.sha.slice(0, 10)}` : `iteration ${of}: nothing to commit`;
      }
      return null;
    }
    case 'event':
      if (record.payload.event.type === 'BOUNDARY_SCANNED' && (context.violations?.length ?? 0) > 0) {
        const paths = (context.violations ?? []).map((v) => v.path).join(', ');
        return `iteration ${of}: boundary violated (${paths}); guards skipped`;
      }
      if (record.payload.event.type === 'NOTES_READ') return `iteration ${of}: notes say ${context.notesFirstLine ?? '(nothing)'}`;
      return null;
    case 'effect.interrupted':
      return `effect ${record.payload.kind} was cut short by the last stop; recorded as interrupted`;
    case 'run.finished':
      return record.payload.exitCode === 0
        ? `done after ${context.iteration ?? '?'} iteration(s): notes say DONE and every guard passed`
        : `stopped after ${context.iteration ?? '?'} iteration(s): ${record.payload.reason} reached without DONE and passing guards`;
    case 'run.interrupted':
      return `interrupted by ${record.payload.signal}; \`yoke run\` resumes where this stopped`;
    default:
      return null;
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}
