// The message for a held run: by one of its budgets (call admission refused the next agent call) or by its agent.
import type { BudgetDimension } from '../config/types.js';
import type { LifecycleDescriptor } from '../machines/lifecycles/lifecycle-descriptor.js';
import type { WorkContext } from '../machines/work/work-context.js';

/** What was spent on a dimension, as the user configures it (minutes, dollars, tokens, attempts). */
export function spentOn(context: WorkContext, dimension: BudgetDimension): number {
  switch (dimension) {
    case 'attempts':
      return context.spent.attempts;
    case 'tokens':
      return context.spent.tokens;
    case 'cost-usd':
      return Math.round(context.spent.costUsd * 10_000) / 10_000;
    case 'minutes':
      return Math.round((context.spent.agentMs / 60_000) * 100) / 100;
    case 'wall-minutes':
      return context.now !== null && context.runStartedAt !== null ? Math.round(((context.now - context.runStartedAt) / 60_000) * 100) / 100 : 0;
  }
}

/** One sentence: what holds the run (its agent, a tool call, something of its lifecycle's own, a budget: how much was spent), and what to do. */
export function describeHold(run: string, context: WorkContext, lifecycle: Pick<LifecycleDescriptor, 'held'>): string {
  if (context.heldFor === 'agent:auth-error') {
    return `run ${run} is held: ${context.holdDetail ?? 'its agent could not authenticate'}; fix the agent's credentials (API key or login), then run \`yoke run\` again to retry the call.`;
  }
  if (context.heldFor === 'agent:tool-ungated') {
    return `run ${run} is held: ${context.holdDetail ?? "its agent's tool calls went around yoke's gate"}; look at what those calls changed, make sure nothing in the CLI's settings switches its hooks off (docs/tool-control.md), then run \`yoke run\` again to retry the call.`;
  }
  if (context.heldFor?.startsWith('tool:') === true) {
    const id = context.heldFor.slice('tool:'.length);
    return `run ${run} is held: ${context.holdDetail ?? `a tool call (${id}) waits for the operator`}; answer it with \`yoke answer ${id} pass\` or \`yoke answer ${id} refuse\` (see \`yoke holds\`), then run \`yoke run\` again.`;
  }
  const own = lifecycle.held?.(run, context) ?? null;
  if (own !== null) return own;
  const dimension = context.blockedOn;
  if (!dimension) return `run ${run} is waiting for an outside input; see \`yoke status\`.`;
  const ceiling = context.budgets[dimension];
  const unknown = context.spent.unknownUsage > 0 && (dimension === 'tokens' || dimension === 'cost-usd')
    ? ` (${context.spent.unknownUsage} call(s) reported no usage and are not counted)` : '';
  return `run ${run} is held by its ${dimension} budget: ${spentOn(context, dimension)} of ${ceiling ?? '?'} spent${unknown}; raise it with \`yoke budget --${dimension} <value>\` and run \`yoke run\` again, or start over with \`yoke run --fresh\`.`;
}
