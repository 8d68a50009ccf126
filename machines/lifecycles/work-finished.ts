// The last line `yoke run` prints for the outcomes of the shared work states (machines/work/final-states.ts), in the lifecycle's unit.
import type { WorkContext } from '../work/work-context.js';

/**
 * The sentence for a work run that ended with `reason`, counting in `unit` (`iteration`, `attempt`),
 * or null for a reason the shared states never give.
 * @example workFinished('done', { iteration: 3 }, 'iteration') // 'done after 3 iteration(s): notes say DONE and every guard passed'
 */
export function workFinished(reason: string, context: Partial<WorkContext>, unit: string): string | null {
  const done = `done after ${context.iteration ?? '?'} ${unit}(s)`;
  switch (reason) {
    case 'done':
      return `${done}: notes say DONE and every guard passed`;
    case 'judge-pass':
      return `${done}: DONE, every guard passed, and the judge said PASS`;
    case 'max-iterations':
      return `stopped: reached max-iterations (${context.maxIterations ?? '?'}) without success`;
    case 'judge-bailout':
      return `stopped: the judge said FAIL ${context.consecutiveFailures ?? '?'} times in a row (max-judge-failures); see .loop/verdict.md`;
    default:
      return null;
  }
}
