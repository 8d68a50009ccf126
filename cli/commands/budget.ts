// `yoke budget --tokens N …`: raise (or set) ceilings of the unfinished run, as journaled events.
import { BUDGET_VALUE_PARSERS } from '../../config/read-budget-directive.js';
import { BUDGET_DIMENSIONS, type BudgetDimension } from '../../config/types.js';
import type { WorkContext } from '../../machines/work/work-context.js';
import type { RunFold } from '../../store/fold/run-fold.js';
import { openWorkspace } from '../../store/session/open-workspace.js';
import { raiseBudgets, unfinishedRunFold, type BudgetRaise } from '../../store/session/raise-budgets.js';
import { readWorkspace } from '../../store/session/read-workspace.js';
import { unansweredToolHold } from '../../store/gate/tool-records.js';
import type { JournalRecord } from '../../store/journal/record.js';
import { YokeError } from '../../errors/yoke-error.js';
import { spentOn } from '../budget-hold.js';
import { findProject } from '../find-project.js';
import { settleLines } from '../stash-format.js';
import { warn } from '../terminal.js';
import { resumeHint, workspaceTarget } from '../workspace-target.js';

type CeilingFlag = 'attempts' | 'tokens' | 'costUsd' | 'minutes' | 'wallMinutes';

/** Flag values as commander hands them over (camelCase keys). */
export type BudgetFlags = Partial<Record<CeilingFlag, string>> & { json: boolean; workspace?: string };

const FLAG_OF: Record<BudgetDimension, CeilingFlag> = {
  'attempts': 'attempts', 'tokens': 'tokens', 'cost-usd': 'costUsd', 'minutes': 'minutes', 'wall-minutes': 'wallMinutes',
};

/**
 * Parse every given ceiling first (nothing is written on a bad value), then journal them, holding
 * the workspace's lease like any writer. With no ceiling it only reads (no lease, as every read command).
 */
export async function budgetCommand(flags: BudgetFlags): Promise<number> {
  const raises: BudgetRaise[] = [];
  for (const dimension of BUDGET_DIMENSIONS) {
    const text = flags[FLAG_OF[dimension]];
    if (text === undefined) continue;
    const parsed = BUDGET_VALUE_PARSERS[dimension](text);
    if (!parsed.ok) throw new YokeError('usage', `--${dimension} ${text}: ${parsed.message} (${parsed.hint}).`);
    raises.push({ dimension, value: parsed.value });
  }
  const paths = await workspaceTarget(flags.workspace, () => findProject(process.cwd()));
  if (raises.length === 0) {
    const { records } = await readWorkspace(paths);
    return report(unfinishedRunFold(records), raises, flags, records);
  }
  const session = await openWorkspace(paths, { command: 'yoke budget', warn, onStale: () => undefined });
  try {
    if (session.settled) for (const line of settleLines(session.settled)) warn(line);
    return report(await raiseBudgets(session.journal, raises), raises, flags, session.journal.records);
  } finally {
    await session.close();
  }
}

/** Print spending against every ceiling of `run` (and what was raised). */
function report({ run, fold }: { run: string; fold: RunFold }, raises: readonly BudgetRaise[], flags: BudgetFlags, records: readonly JournalRecord[]): number {
  const context = fold.snapshot.context as WorkContext;
  const budgets = BUDGET_DIMENSIONS.map((dimension) => ({ dimension, ceiling: context.budgets[dimension] ?? null, spent: spentOn(context, dimension) }));
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ run, raised: raises, budgets })}\n`);
    return 0;
  }
  for (const { dimension, value } of raises) process.stdout.write(`run ${run}: ${dimension} budget is now ${value}.\n`);
  for (const line of budgets) process.stdout.write(`  ${line.dimension.padEnd(12)} ${String(line.spent).padStart(10)} spent of ${line.ceiling ?? 'no limit'}\n`);
  // A run paused on its budget, or on a tool call still unanswered, does not go on at its next `yoke run`: say which.
  if (fold.snapshot.hasTag('paused') && context.blockedOn !== null) process.stdout.write(`The run is still held by its ${context.blockedOn} budget.\n`);
  else if (fold.snapshot.hasTag('paused') && unansweredToolHold(context.heldFor, records)) {
    const toolHold = (context.heldFor ?? '').slice('tool:'.length);
    process.stdout.write(`The run is still held on tool call ${toolHold}: answer it (\`yoke answer ${toolHold} pass|refuse\`${flags.workspace === undefined ? '' : ` --workspace ${flags.workspace}`}) before it goes on.\n`);
  } else if (raises.length > 0) process.stdout.write(`${resumeHint(flags.workspace)}\n`);
  return 0;
}
