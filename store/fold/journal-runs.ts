// Finding runs in a journal and folding one of them.
import { LIFECYCLES, type LifecycleDescriptor } from '../../machines/lifecycles/registry.js';
import type { JournalRecord, StartedRecord } from '../journal/record.js';
import { RunFold, type FoldStep } from './run-fold.js';
import { YokeError } from '../../errors/yoke-error.js';

/** Each run's `run.started` record, oldest first. */
export function runStarts(records: readonly JournalRecord[]): StartedRecord[] {
  return records.filter((record): record is StartedRecord => record.type === 'run.started');
}

/** The `run.started` record of `run`; a `workspace` error when the journal has none (it was edited). */
export function startOf(records: readonly JournalRecord[], run: string): StartedRecord {
  for (const record of records) if (record.type === 'run.started' && record.run === run) return record;
  throw new YokeError('workspace', `run ${run} has records but no run.started in the journal; it was edited or written by an incompatible yoke, so yoke cannot fold it.`);
}

/** The run that has started but neither finished nor been abandoned, if any. */
export function unfinishedRun(records: readonly JournalRecord[]): string | null {
  const open = new Set<string>();
  for (const record of records) {
    if (record.run === null) continue;
    if (record.type === 'run.started') open.add(record.run);
    else if (record.type === 'run.finished' || record.type === 'run.abandoned') open.delete(record.run);
  }
  const runs = [...open];
  return runs[runs.length - 1] ?? null;
}

/** Find a run by id or unique id prefix; the latest run when `prefix` is undefined. */
export function findRun(records: readonly JournalRecord[], prefix?: string): StartedRecord {
  const starts = runStarts(records);
  if (starts.length === 0) throw new YokeError('usage', 'this workspace has no runs yet; start one with `yoke run`.');
  if (prefix === undefined) return starts[starts.length - 1] as StartedRecord;
  const matches = starts.filter((record) => record.run?.startsWith(prefix.toUpperCase()));
  if (matches.length === 1) return matches[0] as StartedRecord;
  if (matches.length === 0) throw new YokeError('usage', `no run id starts with ${prefix}; list them with \`yoke runs\`.`);
  throw new YokeError('usage', `${prefix} matches ${matches.length} runs (${matches.map((m) => m.run).join(', ')}); give more characters.`);
}

/** The lifecycle a run was recorded with; refuses versions this yoke cannot fold. */
export function lifecycleOf(started: StartedRecord): LifecycleDescriptor {
  const lifecycle = LIFECYCLES[started.payload.mode];
  if (!lifecycle || lifecycle.name !== started.machine) {
    throw new YokeError('workspace', `run ${started.run} uses the ${started.machine ?? '?'} machine, which this yoke does not have; use the yoke version that started it, or \`yoke run --fresh\`.`);
  }
  if (lifecycle.version !== started.mv) {
    throw new YokeError('workspace', `run ${started.run} was recorded with ${lifecycle.name} machine v${started.mv ?? '?'} but this yoke has v${lifecycle.version}; finish it with the yoke that started it, or abandon it with \`yoke run --fresh\`.`);
  }
  return lifecycle;
}

/** Fold every record of one run (records of other runs are skipped). */
export function foldRun(records: readonly JournalRecord[], started: StartedRecord, onStep?: (step: FoldStep) => void): RunFold {
  const fold = new RunFold(lifecycleOf(started).machine, started, onStep);
  for (const record of records) {
    if (record.seq <= started.seq || record.run !== started.run) continue;
    fold.apply(record);
  }
  return fold;
}
