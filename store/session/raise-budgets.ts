// `yoke budget`: raise (or set) ceilings of the unfinished run, journaled as BUDGET_RAISED events.
import type { BudgetDimension } from '../../config/types.js';
import { foldRun, lifecycleOf, startOf, unfinishedRun } from '../fold/journal-runs.js';
import type { RunFold } from '../fold/run-fold.js';
import type { JournalWriter } from '../journal/journal-writer.js';
import { YokeError } from '../../errors/yoke-error.js';

/** A new ceiling for one dimension. */
export interface BudgetRaise {
  dimension: BudgetDimension;
  value: number;
}

/**
 * Journal `raises` for the unfinished run (none: a usage error) and fold them in; with no raises
 * nothing is written. Resolves to the run and its fold, for the report.
 */
export async function raiseBudgets(journal: JournalWriter, raises: readonly BudgetRaise[]): Promise<{ run: string; fold: RunFold }> {
  const run = unfinishedRun(journal.records);
  if (run === null) {
    throw new YokeError('usage', 'there is no unfinished run to raise a budget for; set `budget …` in .loop/yoke.conf for the next run.');
  }
  const started = startOf(journal.records, run);
  const fold = foldRun(journal.records, started);
  if (raises.length === 0) return { run, fold };
  const lifecycle = lifecycleOf(started);
  for (const { dimension, value } of raises) {
    fold.apply(journal.stage({ type: 'event', run, machine: lifecycle.name, mv: lifecycle.version, payload: { cause: null, event: { type: 'BUDGET_RAISED', dimension, value } } }));
  }
  await journal.flush();
  return { run, fold };
}
