// Turns journal records into the human progress lines `yoke run` prints.
import type { EffectResult } from '../machines/effects.js';
import type { LifecycleDescriptor } from '../machines/lifecycles/lifecycle-descriptor.js';
import type { LoopContext } from '../machines/lifecycles/loop.js';
import type { JournalRecord } from '../store/journal/record.js';
import type { RunFold } from '../store/fold/run-fold.js';
import { stateText } from '../store/fold/state-text.js';
import { itemProgressText } from './status-text.js';

/** What the lines are worded with, from the run's lifecycle: its unit (`iteration`, `attempt`), its final lines, its item progress, what a judge's FAIL counts toward. */
export type ProgressWording = Pick<LifecycleDescriptor, 'unit' | 'finished' | 'progress' | 'judgeFail'>;

/** One line for a record worth telling a human about, or null, worded by the run's lifecycle. */
export function describeProgress(record: JournalRecord, fold: RunFold, wording: ProgressWording): string | null {
  const { unit } = wording;
  const context = fold.snapshot.context as Partial<LoopContext>;
  const of = `${context.iteration ?? '?'}/${context.maxIterations ?? '?'}`;
  const where = `${context.chunk ? `chunk ${context.chunk} ` : ''}${unit} ${of}:`;
  switch (record.type) {
    case 'effect.started':
      if (record.payload.kind === 'agent.spawn') return `${where} ${roleOf(record.payload.params)} started`;
      if (record.payload.kind === 'commit.create') return `${where} committing`;
      // only an overruled judgment makes yoke write verdict.md (DESIGN §16)
      if (record.payload.kind === 'file.write' && (record.payload.params as { file?: string }).file === 'verdict.md') {
        return `${where} judge overruled: FAIL, because the judge changed protected files (restored; .loop/verdict.md lists them)`;
      }
      if (record.payload.kind === 'wait.until') {
        const until = (record.payload.params as { until: number }).until;
        return `${where} rate-limited: waiting until ${new Date(until).toISOString().slice(11, 19)} UTC, then the same call again (${Math.max(0, Math.round((until - Date.parse(record.ts)) / 1000))}s)`;
      }
      return null;
    case 'effect.completed': {
      const status = fold.effects.get(record.payload.key);
      const kind = status?.request.request.kind;
      if (kind === 'agent.spawn') {
        const result = record.payload.result as EffectResult<'agent.spawn'>;
        const how = result.outcome === 'exited' ? `exited ${result.exitCode ?? '?'}` : result.outcome;
        // The adapter's classification, when it is news: `rate-limited (HTTP 429 …)`, `auth-error (…)`.
        const classified = result.classification && result.classification !== 'ok' ? `, ${result.classification}${result.detail ? ` (${result.detail})` : ''}` : '';
        return `${where} ${roleOf(status?.request.request.params)} ${how}${classified} after ${seconds(result.durationMs)} (transcript .loop/${result.transcript})`;
      }
      if (kind === 'check.run' && status?.request.request.kind === 'check.run') {
        const result = record.payload.result as EffectResult<'check.run'>;
        const passed = result.outcome === 'exited' && result.exitCode === 0;
        const verdict = status.request.request.params.kind === 'periodic' ? `exit ${result.exitCode ?? result.outcome}` : passed ? 'pass' : 'FAIL';
        return `${where} ${status.request.request.params.kind} ${status.request.request.params.name}: ${verdict} (${seconds(result.durationMs)})`;
      }
      if (kind === 'acceptance.check') {
        const result = record.payload.result as EffectResult<'acceptance.check'>;
        if (result.outcome === 'refused') return `${where} acceptance could not run (${result.reason}): ${result.message}`;
        const failed = result.criteria.filter((criterion) => criterion.status === 'failed').map((criterion) => criterion.name);
        const verdict = result.status === 'passed' ? 'pass' : `FAIL${failed.length > 0 ? ` (${failed.join(', ')})` : ''}`;
        return `${where} acceptance: ${verdict}; evidence .loop/${result.report.path}`;
      }
      if (kind === 'protect.restore') {
        const result = record.payload.result as EffectResult<'protect.restore'>;
        return `${where} restored ${result.restored.length} protected file(s) an agent changed: ${result.restored.slice(0, 5).join(', ')}${result.restored.length > 5 ? ', …' : ''}`;
      }
      if (kind === 'commit.create') {
        const result = record.payload.result as EffectResult<'commit.create'>;
        return result.sha ? `${where} committed ${result.sha.slice(0, 10)}` : `${where} nothing to commit`;
      }
      return null;
    }
    case 'event':
      if (record.payload.event.type === 'BOUNDARY_SCANNED' && (context.violations?.length ?? 0) > 0) {
        const paths = (context.violations ?? []).map((v) => v.path).join(', ');
        return `${where} boundary violated (${paths}); guards skipped`;
      }
      if (record.payload.event.type === 'STORY_PASSED') {
        const passed = passedStory(fold, record.payload.cause);
        const sha = (record.payload.event as { result?: { sha?: string | null } }).result?.sha ?? null;
        const items = wording.progress?.(context) ?? null;
        // the fold has moved on to the next iteration already: name the story's own
        const at = `${unit} ${passed?.iteration ?? context.iteration ?? '?'}/${context.maxIterations ?? '?'}:`;
        return `${at} story ${passed?.story ?? '?'} passed${sha ? `, committed ${sha.slice(0, 10)}` : ''}${items ? ` (${itemProgressText(items)})` : ''}`;
      }
      if (record.payload.event.type === 'NOTES_READ') return `${where} notes say ${context.notesFirstLine ?? '(nothing)'}`;
      if (record.payload.event.type === 'FILE_INSPECTED' && inspected(fold, record.payload.cause) === 'verdict.md' && context.verdict
        && context.judgments !== undefined && context.judgments > 0 && !stateText(fold.snapshot.value).endsWith('judging')) {
        // A feedback judgment may already have moved the machine to the next iteration: name the
        // judge call's own iteration, and a trigger that was reset with it was the cadence.
        const judgedAt = lastJudgeIteration(fold) ?? context.iteration ?? '?';
        const trigger = context.judgeTrigger ?? 'cadence';
        const problem = context.verdictProblem ? ` (${context.verdictProblem})` : '';
        const count = context.verdict === 'FAIL' && trigger === 'done'
          ? `, ${wording.judgeFail?.(context) ?? `${context.consecutiveFailures ?? '?'} of ${context.config?.maxJudgeFailures ?? '?'} consecutive`}` : '';
        const head = `${context.chunk ? `chunk ${context.chunk} ` : ''}${unit} ${judgedAt}/${context.maxIterations ?? '?'}:`;
        return `${head} judge says ${context.verdict}${problem}${trigger === 'cadence' ? ' (feedback)' : count}`;
      }
      return null;
    case 'effect.interrupted':
      // a lane's turn effect withdrawn on resume says why itself ("not run: …")
      if (record.payload.reason.startsWith('not run:')) return `effect ${record.payload.kind} ${record.payload.reason}`;
      return `effect ${record.payload.kind} was cut short by the last stop; recorded as interrupted`;
    case 'run.finished':
      return wording.finished(record.payload.reason, context) ?? `finished: ${record.payload.reason} (exit ${record.payload.exitCode})`;
    case 'run.interrupted':
      return `interrupted by ${record.payload.signal}; \`yoke run\` resumes where this stopped`;
    default:
      return null;
  }
}

/** The story a `story.pass` effect passed, and in which iteration. */
function passedStory(fold: RunFold, cause: string | null): { story: string; iteration: number } | null {
  const request = cause === null ? undefined : fold.effects.get(cause)?.request.request;
  return request?.kind === 'story.pass' ? { story: request.params.story, iteration: request.params.iteration } : null;
}

/** Which file a `file.inspect` effect looked at. */
function inspected(fold: RunFold, cause: string | null): string | null {
  const request = cause === null ? undefined : fold.effects.get(cause)?.request.request;
  return request?.kind === 'file.inspect' ? request.params.file : null;
}

/** The iteration of the latest judge call. */
function lastJudgeIteration(fold: RunFold): number | null {
  let found: number | null = null;
  for (const status of fold.effects.values()) {
    const request = status.request.request;
    if (request.kind === 'agent.spawn' && request.params.role === 'judge') found = request.params.iteration;
  }
  return found;
}

function roleOf(params: unknown): string {
  const p = params as { role?: string; chunk?: number } | undefined;
  return `${p?.role ?? 'agent'}${p?.role === 'scoper' ? ` (chunk ${p.chunk ?? '?'})` : ''}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}
