// How `yoke retrofit` prints its plan and what it did.
import type { PlanAction, PlanEntry, RetrofitPlan } from '../machines/retrofit/retrofit-plan.js';

const LABEL: { readonly [A in PlanAction]: string } = {
  create: 'create',
  update: 'update',
  delete: 'delete',
  unchanged: 'ok',
  drifted: 'drifted',
  refused: 'refused',
};

/** One line per entry that is not up to date (all of them with `all`). */
export function planLines(plan: RetrofitPlan, all: boolean): string[] {
  const shown = plan.entries.filter((entry) => all || entry.action !== 'unchanged');
  const width = Math.min(56, Math.max(...shown.map((entry) => entry.path.length), 4));
  return shown.map((entry) => `  ${LABEL[entry.action].padEnd(8)} ${entry.path.padEnd(width)}  ${entry.reason}${entry.summary === '' ? '' : ` (${entry.summary})`}`);
}

/** Counts per action, e.g. "3 created, 1 updated, 40 up to date". */
export function planCounts(entries: readonly PlanEntry[]): string {
  const count = (action: PlanAction) => entries.filter((entry) => entry.action === action).length;
  const parts = [
    [count('create'), 'created'], [count('update'), 'updated'], [count('delete'), 'deleted'],
    [count('drifted'), 'drifted (kept, yoke\'s version in .yoke-new)'], [count('refused'), 'refused (left untouched)'], [count('unchanged'), 'up to date'],
  ] as const;
  return parts.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}`).join(', ');
}

/** The plan as JSON for --json (contents left out: they are the files themselves). */
export function planJson(plan: RetrofitPlan): object {
  return {
    agents: plan.agents,
    entries: plan.entries.map(({ path, action, reason, summary }) => ({ path, action, reason, summary })),
  };
}
