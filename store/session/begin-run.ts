// `yoke run`'s start, applied: plan (pure), write the files and blobs the plan's records name, stage
// the records, make them durable, hand back the fold to drive.
import { writeFile } from 'node:fs/promises';
import { ulid } from 'ulid';
import { getBlobSync, putBlob } from '../../effects/fs/blob-store.js';
import { loopPath } from '../../effects/fs/loop-path.js';
import { foldRun, lifecycleOf } from '../fold/journal-runs.js';
import type { RunFold } from '../fold/run-fold.js';
import type { LifecycleDescriptor, Notice } from '../../machines/lifecycles/lifecycle-descriptor.js';
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
  /** what to tell the user about what was journaled (its own files edited or put back, --parallel changed), in order */
  notices: Notice[];
}

/**
 * Plan the run against the journal (a new run gets a fresh ULID; `run.resumed` names this
 * process; blobs are read from `.loop/`), write the `.loop/` files and blobs the plan's records
 * name, stage the records and flush them together.
 */
export async function beginRun(journal: JournalWriter, request: Omit<RunRequest, 'runId' | 'pid' | 'locate' | 'readBlob' | 'readFrom'> & { loopDir: string }): Promise<BegunRun> {
  const plan = planRun(journal.records, {
    ...request, runId: ulid(), pid: process.pid, locate: (seq) => journal.store.recordLocation(seq),
    readBlob: (sha) => getBlobSync(request.loopDir, sha).toString('utf8'), readFrom: journal.base?.seq ?? null,
  });
  for (const [name, content] of Object.entries(plan.writes)) await writeFile(loopPath(request.loopDir, name), content);
  for (const content of plan.blobs) await putBlob(request.loopDir, Buffer.from(content));
  const staged = plan.drafts.map((draft) => journal.stage(draft));
  await journal.flush();
  if (plan.kind === 'resume') {
    for (const record of staged) if (record.run === plan.run) plan.fold.apply(record);
    return { plan, started: plan.started, lifecycle: lifecycleOf(plan.started), fold: plan.fold, notices: plan.notices };
  }
  const started = staged.find((record): record is StartedRecord => record.type === 'run.started');
  if (!started) throw new Error('a plan to start a run stages no run.started');
  return { plan, started, lifecycle: lifecycleOf(started), fold: foldRun(journal.records, started), notices: plan.notices };
}
