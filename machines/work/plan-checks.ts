// Which checks run in an iteration: guards, then each due periodic followed by its guard-afters.
import type { Config } from '../../config/types.js';
import type { PlannedCheck } from './guard-report.js';

/**
 * The checks to run this iteration, in order (periodics run when `iteration % every === 0`).
 * `accepts` (goal) puts yoke's own acceptance criteria first: they decide completion, not the worker.
 */
export function planChecks(config: Config, iteration: number, { accepts: withAccepts }: { accepts: boolean } = { accepts: false }): PlannedCheck[] {
  const accepts: PlannedCheck[] = withAccepts ? config.accepts.map((a) => ({ kind: 'accept', name: a.name, command: a.command })) : [];
  const plan: PlannedCheck[] = [...accepts, ...config.guards.map((g): PlannedCheck => ({ kind: 'guard', name: g.name, command: g.command }))];
  for (const periodic of config.periodics) {
    if (iteration % periodic.every !== 0) continue;
    plan.push({ kind: 'periodic', name: periodic.name, command: periodic.command });
    for (const after of config.guardAfters) {
      if (after.periodic === periodic.name) plan.push({ kind: 'guard-after', name: after.name, command: after.command });
    }
  }
  return plan;
}
