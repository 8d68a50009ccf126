// The message for a held run: by one of its budgets (call admission refused the next agent call) or by its agent.
import type { BudgetDimension } from '../config/types.js';
import type { LifecycleDescriptor } from '../machines/lifecycles/lifecycle-descriptor.js';
import type { WorkContext } from '../machines/work/work-context.js';
import type { LaneHold } from '../store/projections/held-lanes.js';

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

/**
 * One sentence: what holds the run (its agent, a tool call, something of its lifecycle's own, a
 * budget: how much was spent), and what to do. A parallel run held in several `lanes` gets one line
 * per lane instead, each with its own remedy.
 */
export function describeHold(run: string, context: WorkContext, lifecycle: Pick<LifecycleDescriptor, 'held'>, lanes: readonly LaneHold[] = []): string {
  if (lanes.length > 1) return describeHeldLanes(run, lanes);
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

/** A parallel run held in several lanes: a line per lane (its story, what holds it, what to do), then how to go on. */
export function describeHeldLanes(run: string, lanes: readonly LaneHold[]): string {
  const firstHeldBy = new Map<string, string>();
  const lines = lanes.map((lane) => {
    const shared = lane.holds.map((id) => firstHeldBy.get(id)).filter((story): story is string => story !== undefined);
    for (const id of lane.holds) if (!firstHeldBy.has(id)) firstHeldBy.set(id, lane.story);
    return `  story ${lane.story}: ${laneRemedy(lane)}${shared.length === 0 ? '' : ` (the same call as story ${[...new Set(shared)].join(', ')}'s: one answer answers both)`}`;
  });
  return `run ${run} is held in ${lanes.length} lanes:\n${lines.join('\n')}\nthen run \`yoke run\` again: every held lane goes on, and one whose call is still unanswered calls again and holds again (answer them all first to spend no call; see \`yoke holds\`).`;
}

/** What holds one lane, and what to do about it. */
function laneRemedy(lane: LaneHold): string {
  switch (lane.reason) {
    case 'tool-held': {
      const ids = lane.holds.length === 0 ? ['<id>'] : lane.holds;
      const answer = ids.map((id) => `\`yoke answer ${id} pass|refuse\``).join(' and ');
      return `its worker's tool call${ids.length > 1 ? 's' : ''} ${ids.join(', ')} ${ids.length > 1 ? 'wait' : 'waits'} for the operator; answer with ${answer}`;
    }
    case 'auth-error':
      return `its worker could not authenticate (${lane.detail ?? 'no detail given'}); fix the agent's credentials (API key or login)`;
    case 'tool-ungated':
      return `its worker's tool calls went around yoke's gate (${lane.detail ?? 'no detail given'}); look at what those calls changed and make sure nothing in the CLI's settings switches its hooks off (docs/tool-control.md)`;
  }
}
