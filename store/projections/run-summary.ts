// A run's headline facts, folded from the journal (used by `yoke status` and `yoke runs`).
import type { ItemProgress } from '../../machines/lifecycles/lifecycle-descriptor.js';
import type { LoopContext } from '../../machines/lifecycles/loop.js';
import { lifecycleNamed } from '../../machines/lifecycles/registry.js';
import { describeState, TAMPER_STOP } from '../fold/runner.js';
import type { JournalRecord } from '../journal/record.js';
import type { RunFold } from '../fold/run-fold.js';

/** What `status` and `runs` show for one run. */
export interface RunSummary {
  run: string;
  mode: string;
  machine: string;
  machineVersion: number | null;
  startedAt: string;
  lastRecordAt: string;
  /** finished: reached a final state; abandoned: replaced by --fresh; unfinished: `yoke run` resumes it */
  status: 'finished' | 'abandoned' | 'unfinished';
  state: string;
  /** the lifecycle's word for one pass, which `iteration` counts (`iteration`, `attempt`) */
  unit: string;
  iteration: number | null;
  maxIterations: number | null;
  exitCode: number | null;
  reason: string | null;
  agentCalls: number;
  interruptions: number;
  /** how the last invocation ended when the run is unfinished: interrupted by a signal, failed, or crashed */
  lastStop: string | null;
  /** goal: the last acceptance report (path relative to the project root, its SHA-256, its verdict, the attempt); null before one */
  acceptance: { path: string; sha256: string; status: 'passed' | 'failed'; iteration: number } | null;
  /** how many of the run's work items passed, of how many (stories: its stories); null when its lifecycle counts none */
  progress: ItemProgress | null;
}

/** Summarize a folded run; `records` is the whole journal. */
export function summarizeRun(fold: RunFold, records: readonly JournalRecord[]): RunSummary {
  const mine = records.filter((record) => record.run === fold.run);
  const last = mine[mine.length - 1] ?? fold.started;
  const context = fold.snapshot.context as Partial<LoopContext>;
  const proof = context.lastProof ?? null;
  return {
    run: fold.run,
    mode: fold.started.payload.mode,
    machine: fold.started.machine ?? '?',
    machineVersion: fold.started.mv,
    startedAt: fold.started.ts,
    lastRecordAt: last.ts,
    status: fold.finished ? 'finished' : fold.abandoned ? 'abandoned' : 'unfinished',
    state: describeState(fold),
    unit: unitOf(fold.started.payload.mode),
    iteration: context.iteration ?? null,
    maxIterations: context.maxIterations ?? null,
    exitCode: fold.finished?.exitCode ?? null,
    reason: fold.finished?.reason ?? null,
    agentCalls: context.agentCalls ?? 0,
    interruptions: context.interruptions ?? 0,
    lastStop: fold.finished ? null : lastStopOf(last),
    acceptance: proof === null ? null : { ...proof, path: `.loop/${proof.path}` },
    progress: lifecycleNamed(fold.started.payload.mode)?.progress?.(context) ?? null,
  };
}

/**
 * A summary from the records alone, for a run this yoke cannot fold (recorded with another
 * machine version): no state or counters, but what finished it and when.
 */
export function summarizeUnfoldable(started: Extract<JournalRecord, { type: 'run.started' }>, records: readonly JournalRecord[]): RunSummary {
  const mine = records.filter((record) => record.run === started.run);
  const last = mine[mine.length - 1] ?? started;
  const finished = mine.find((record): record is Extract<JournalRecord, { type: 'run.finished' }> => record.type === 'run.finished');
  const abandoned = mine.some((record) => record.type === 'run.abandoned');
  return {
    run: started.run ?? '',
    mode: started.payload.mode,
    machine: started.machine ?? '?',
    machineVersion: started.mv,
    startedAt: started.ts,
    lastRecordAt: last.ts,
    status: finished ? 'finished' : abandoned ? 'abandoned' : 'unfinished',
    state: `unknown (recorded by ${started.machine ?? '?'} machine v${started.mv ?? '?'}, which this yoke cannot fold)`,
    unit: unitOf(started.payload.mode),
    iteration: null,
    maxIterations: null,
    exitCode: finished?.payload.exitCode ?? null,
    reason: finished?.payload.reason ?? null,
    agentCalls: 0,
    interruptions: 0,
    lastStop: finished || abandoned ? null : lastStopOf(last),
    acceptance: null,
    progress: null,
  };
}

/** The unit of the lifecycle called `mode` (`iteration` for one this yoke lacks). */
function unitOf(mode: string): string {
  return lifecycleNamed(mode)?.unit ?? 'iteration';
}

/** What to do about a pause, by its reason. */
function pausedRemedy(reason: string): string {
  if (reason.startsWith('budget:')) return 'raise it with `yoke budget`';
  if (reason.startsWith('tool:')) return `answer it with \`yoke answer ${reason.slice('tool:'.length)} pass|refuse\`, then \`yoke run\``;
  if (reason === 'agent:tool-ungated') return "look at what the calls that went around yoke's gate changed, then `yoke run` retries";
  if (reason === 'agent:auth-error') return "fix the agent's credentials, then `yoke run` retries";
  return '`yoke run` goes on once it is resolved';
}

function lastStopOf(record: JournalRecord): string | null {
  if (record.type === 'run.interrupted') return `interrupted by ${record.payload.signal}`;
  if (record.type === 'run.paused') return `held: ${record.payload.reason} (${pausedRemedy(record.payload.reason)})`;
  // the tamper check's stop names itself and the kept copy (store/fold/runner.ts)
  if (record.type === 'effect.failed') return record.payload.message.startsWith(TAMPER_STOP) ? record.payload.message : `failed: ${record.payload.message}`;
  if (record.type === 'run.abandoned') return null;
  return 'stopped without a trace (crash or kill -9)';
}
