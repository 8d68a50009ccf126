// `yoke budget --tokens N …`: raise (or set) ceilings of the unfinished run, as journaled events.
import { BUDGET_VALUE_PARSERS } from '../../config/read-budget-directive.js';
import { BUDGET_DIMENSIONS, type BudgetDimension } from '../../config/types.js';
import type { WorkContext } from '../../machines/work/work-context.js';
import { openWorkspace } from '../../store/session/open-workspace.js';
import { raiseBudgets, type BudgetRaise } from '../../store/session/raise-budgets.js';
import { YokeError } from '../../errors/yoke-error.js';
import { spentOn } from '../budget-hold.js';
import { findProject } from '../find-project.js';
import { settleLines } from '../stash-format.js';
import { warn } from '../terminal.js';

/** Flag values as commander hands them over (camelCase keys). */
export type BudgetFlags = Partial<Record<'attempts' | 'tokens' | 'costUsd' | 'minutes' | 'wallMinutes', string>> & { json: boolean };

const FLAG_OF: Record<BudgetDimension, keyof Omit<BudgetFlags, 'json'>> = {
  'attempts': 'attempts', 'tokens': 'tokens', 'cost-usd': 'costUsd', 'minutes': 'minutes', 'wall-minutes': 'wallMinutes',
};

/** Parse every given ceiling first (nothing is written on a bad value), then journal them. */
export async function budgetCommand(flags: BudgetFlags): Promise<number> {
  const raises: BudgetRaise[] = [];
  for (const dimension of BUDGET_DIMENSIONS) {
    const text = flags[FLAG_OF[dimension]];
    if (text === undefined) continue;
    const parsed = BUDGET_VALUE_PARSERS[dimension](text);
    if (!parsed.ok) throw new YokeError('usage', `--${dimension} ${text}: ${parsed.message} (${parsed.hint}).`);
    raises.push({ dimension, value: parsed.value });
  }
  const paths = findProject(process.cwd());
  const session = await openWorkspace(paths, { command: 'yoke budget', warn, onStale: () => undefined });
  try {
    if (session.settled) for (const line of settleLines(session.settled)) warn(line);
    const { run, fold } = await raiseBudgets(session.journal, raises);
    const context = fold.snapshot.context as WorkContext;
    const report = BUDGET_DIMENSIONS.map((dimension) => ({ dimension, ceiling: context.budgets[dimension] ?? null, spent: spentOn(context, dimension) }));
    if (flags.json) process.stdout.write(`${JSON.stringify({ run, raised: raises, budgets: report })}\n`);
    else {
      for (const { dimension, value } of raises) process.stdout.write(`run ${run}: ${dimension} budget is now ${value}.\n`);
      for (const line of report) process.stdout.write(`  ${line.dimension.padEnd(12)} ${String(line.spent).padStart(10)} spent of ${line.ceiling ?? 'no limit'}\n`);
      if (fold.snapshot.hasTag('paused')) process.stdout.write(`The run is still held by its ${context.blockedOn ?? '?'} budget.\n`);
      else if (raises.length > 0) process.stdout.write('Run `yoke run` to continue.\n');
    }
    return 0;
  } finally {
    await session.close();
  }
}
