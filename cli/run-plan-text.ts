// What `yoke run` says about its plan before it drives: the run it abandoned, started or resumes, counted in the lifecycle's unit.
import type { RunPlan } from '../store/session/plan-run.js';

/** What the lines say of a plan. */
export type PlanFacts =
  | Pick<Extract<RunPlan, { kind: 'start' }>, 'kind' | 'run' | 'mode' | 'abandoned' | 'maxIterations'>
  | Pick<Extract<RunPlan, { kind: 'resume' }>, 'kind' | 'run' | 'iteration' | 'state'>;

/**
 * The lines for `plan`, in order; `unit` is the lifecycle's word for one pass (`iteration`, `attempt`).
 * @example planLines(plan, 'attempt') // ['started run 01JD… (goal, at most 5 attempts)']
 */
export function planLines(plan: PlanFacts, unit: string): string[] {
  if (plan.kind === 'resume') return [`resuming run ${plan.run} at ${unit} ${plan.iteration} (state ${plan.state})`];
  return [
    ...(plan.abandoned !== null ? [`abandoned unfinished run ${plan.abandoned} (--fresh)`] : []),
    `started run ${plan.run} (${plan.mode}, at most ${plan.maxIterations} ${unit}s)`,
  ];
}
