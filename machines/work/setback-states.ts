// The states and transitions of an agent call that did not do its work: a rate limit waits, an
// authentication failure holds, a call cut short is counted (the rules are in agent-setbacks.ts).
import { assign } from 'xstate';
import type { SetbackRole } from './agent-setbacks.js';
import { request } from '../effects.js';
import type { WorkContext } from './work-context.js';
import { workSetup } from './work-setup.js';

/** An agent call cut short: counted, and its usage is unknown (budgets cannot see it). */
export function interrupted({ context }: { context: WorkContext }): Partial<WorkContext> {
  return { interruptions: context.interruptions + 1, spent: { ...context.spent, unknownUsage: context.spent.unknownUsage + 1 } };
}

/**
 * The AGENT_EXITED transitions tried before a role's normal one: a rate limit waits, an
 * authentication failure holds. The normal transition adds `clearRateLimits` (the streak ends).
 */
export function setbackTransitions(role: SetbackRole) {
  return [
    { guard: 'agentRateLimited', target: `${role}RateLimited`, actions: { type: 'noteRateLimit', params: { role } } },
    { guard: 'agentAuthFailed', target: `${role}AgentHold`, actions: { type: 'holdForAgent', params: { role } } },
    // A tool call held for the operator (DESIGN §13): the same hold; `yoke run` goes on once it is answered.
    { guard: 'agentToolHeld', target: `${role}AgentHold`, actions: { type: 'holdForTool', params: { role } } },
    // Tool calls that ran without a ruling, or a CLI whose settings switch its hooks off: the operator looks first.
    { guard: 'agentUngated', target: `${role}AgentHold`, actions: { type: 'holdForUngated', params: { role } } },
  ] as const;
}

/** The rate-limit wait and the authentication hold of one role; both retry at `retryTarget`. */
export function setbackStates(role: SetbackRole, retryTarget: string) {
  return {
    [`${role}RateLimited`]: workSetup.createStateConfig({
      entry: {
        type: 'request',
        params: ({ context }) => request('wait.until', { until: context.waitUntil ?? 0, reason: `rate limit on the ${role} call (${context.rateLimits} in a row)` }),
      },
      on: { WAITED: { target: retryTarget, actions: assign({ waitUntil: null }) } },
    }),
    // Not final: `yoke run` journals AGENT_RETRY (the user fixed the credentials) and goes on.
    [`${role}AgentHold`]: workSetup.createStateConfig({
      tags: ['paused'],
      on: { AGENT_RETRY: { target: retryTarget, actions: assign({ heldFor: null, holdDetail: null }) } },
    }),
  };
}
