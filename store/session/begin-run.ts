// `yoke run`'s start, applied: plan (pure), stage the plan's records, make them durable, hand back the fold to drive.
import { ulid } from 'ulid';
import { foldRun, lifecycleOf } from '../fold/journal-runs.js';
import type { RunFold } from '../fold/run-fold.js';
import type { LifecycleDescriptor } from '../../machines/lifecycles/registry.js';
import type { JournalWriter } from '../journal/journal-writer.js';
import type { StartedRecord } from '../journal/record.js';
import { planRun, type RunPlan, type RunRequest } from './plan-run.js';

/** The run about to be driven. */
export interface BegunRun {
  plan: RunPlan;
  started: StartedRecord;
  lifecycle: LifecycleDescriptor;
  /** folded through the plan's records, ready for the runner */
  fold: RunFold;
}

/**
 * Plan the run against the journal (a new run gets a fresh ULID; `run.resumed` names this
 * process), stage the plan's records and flush them together.
 */
export async function beginRun(journal: JournalWriter, request: Omit<RunRequest, 'runId' | 'pid' | 'locate' | 'readFrom'>): Promise<BegunRun> {
  const plan = planRun(journal.records, { ...request, runId: ulid(), pid: process.pid, locate: (seq) => journal.store.recordLocation(seq), readFrom: journal.base?.seq ?? null });
  const staged = plan.drafts.map((draft) => journal.stage(draft));
  await journal.flush();
  if (plan.kind === 'resume') {
    for (const record of staged) if (record.run === plan.run) plan.fold.apply(record);
    return { plan, started: plan.started, lifecycle: lifecycleOf(plan.started), fold: plan.fold };
  }
  const started = staged.find((record): record is StartedRecord => record.type === 'run.started');
  if (!started) throw new Error('a plan to start a run stages no run.started');
  return { plan, started, lifecycle: lifecycleOf(started), fold: foldRun(journal.records, started) };
}
