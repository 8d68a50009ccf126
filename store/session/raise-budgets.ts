// `yoke budget`: raise (or set) ceilings of the unfinished run, journaled as BUDGET_RAISED events.
import type { BudgetDimension } from '../../config/types.js';
import { foldRun, lifecycleOf, startOf, unfinishedRun } from '../fold/journal-runs.js';
import type { RunFold } from '../fold/run-fold.js';
import type { JournalWriter } from '../journal/journal-writer.js';
import type { JournalRecord } from '../journal/record.js';
import { YokeError } from '../../errors/yoke-error.js';

/** A new ceiling for one dimension. */
export interface BudgetRaise {
  dimension: BudgetDimension;
  value: number;
}

/** The unfinished run of `records` and its fold; none is a usage error (a budget for the next run goes in yoke.conf). */
export function unfinishedRunFold(records: readonly JournalRecord[]): { run: string; fold: RunFold } {
  const run = unfinishedRun(records);
  if (run === null) {
    throw new YokeError('usage', 'there is no unfinished run to raise a budget for; set `budget …` in .loop/yoke.conf for the next run.');
  }
  return { run, fold: foldRun(records, startOf(records, run)) };
}

/**
 * Journal `raises` for the unfinished run (none: a usage error) and fold them in; with no raises
 * nothing is written. Resolves to the run and its fold, for the report.
 */
export async function raiseBudgets(journal: JournalWriter, raises: readonly BudgetRaise[]): Promise<{ run: string; fold: RunFold }> {
  const { run, fold } = unfinishedRunFold(journal.records);
  if (raises.length === 0) return { run, fold };
  const lifecycle = lifecycleOf(startOf(journal.records, run));
  for (const { dimension, value } of raises) {
    fold.apply(journal.stage({ type: 'event', run, machine: lifecycle.name, mv: lifecycle.version, payload: { cause: null, event: { type: 'BUDGET_RAISED', dimension, value } } }));
  }
  await journal.flush();
  return { run, fold };
}
