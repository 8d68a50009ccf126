// The XState setup shared by the loop, brute and saga machines: types, the `request` action, shared guards.
import { assign, setup } from 'xstate';
import type { MachineEvent } from '../effect-events.js';
import { holdForAgent, holdForTool, holdForUngated, noteRateLimit, type SetbackRole } from './agent-setbacks.js';
import type { EffectRequest } from '../effects.js';
import { budgetBreached, initialContext, restoresAfterCalls, succeeded, type RunOutput, type SuccessRule, type WorkContext, type WorkInput } from './work-context.js';

export const workSetup = setup({
  types: {
    input: {} as WorkInput,
    context: {} as WorkContext,
    events: {} as MachineEvent,
    output: {} as RunOutput,
  },
  actions: {
    /** Executed by the runner, never by XState: the machine only states what it needs. */
    request: (_, _params: EffectRequest) => undefined,
    /** `yoke budget …`: set the ceiling (accepted in any state). */
    raiseBudget: assign(({ context, event }) => {
      if (event.type !== 'BUDGET_RAISED') return {};
      return { budgets: { ...context.budgets, [event.dimension]: event.value }, blockedOn: null, clockFresh: false };
    }),
    /** A rate-limited agent call: count it and decide when the wait ends. */
    noteRateLimit: assign(({ context, event }, params: { role: SetbackRole }) =>
      event.type === 'AGENT_EXITED' ? noteRateLimit(context, event.result, params.role) : {}),
    /** An agent call that could not authenticate: hold the run. */
    holdForAgent: assign(({ context, event }, params: { role: SetbackRole }) =>
      event.type === 'AGENT_EXITED' ? holdForAgent(context, event.result, params.role) : {}),
    holdForTool: assign(({ context, event }, params: { role: SetbackRole }) =>
      event.type === 'AGENT_EXITED' ? holdForTool(context, event.result, params.role) : {}),
    holdForUngated: assign(({ context, event }, params: { role: SetbackRole }) =>
      event.type === 'AGENT_EXITED' ? holdForUngated(context, event.result, params.role) : {}),
    /** An agent call that did its work ends a rate-limit streak. */
    clearRateLimits: assign({ rateLimits: 0, resumeSession: null }),
    /** yoke's commit is where HEAD must stay from now on (a commit with nothing staged changes nothing). */
    noteCommit: assign(({ context, event }) => ({ lastCommit: event.type === 'COMMITTED' && event.result.sha !== null ? event.result.sha : context.lastCommit })),
    /** `yoke protect refresh` while the run was unfinished: protect the refreshed baseline from now on. */
    refreshProtection: assign(({ context, event }) => ({ protection: event.type === 'PROTECTION_REFRESHED' ? event.protection : context.protection })),
    setMaxIterations: assign(({ context, event }) => ({ maxIterations: event.type === 'SET_MAX_ITERATIONS' ? event.max : context.maxIterations })),
    /** A spec restore decided now asks for the files as the run holds them: an earlier edit needs no restore of its own any more. */
    clearRestoreAgain: assign(({ context }) => (context.restoreAgain === true ? { restoreAgain: false } : {})),
  },
  guards: {
    /** spec 1.4: the boundary scan found a path outside the boundary */
    boundaryBroken: ({ context }) => context.violations.length > 0,
    /** the run (or chunk) succeeded: worker done, guards passed, and (judged) the judge said PASS; goal: acceptance passed */
    succeeded: ({ context }, params: SuccessRule) => succeeded(context, params),
    /** a wall-minutes budget exists and the clock was not read for this admission yet */
    needsClock: ({ context }) => context.budgets['wall-minutes'] !== undefined && !context.clockFresh,
    /** the agent call was refused by a rate limit / could not authenticate (its adapter says so) */
    agentRateLimited: ({ event }) => event.type === 'AGENT_EXITED' && event.result.classification === 'rate-limited',
    agentAuthFailed: ({ event }) => event.type === 'AGENT_EXITED' && event.result.classification === 'auth-error',
    agentToolHeld: ({ event }) => event.type === 'AGENT_EXITED' && event.result.classification === 'tool-held',
    agentUngated: ({ event }) => event.type === 'AGENT_EXITED' && event.result.classification === 'tool-ungated',
    overBudget: ({ context }, params: { attempt: boolean }) => budgetBreached(context, params.attempt) !== null,
    /** spec 1.1: the run restores the spec files right after every agent call (journaled in its input; absent in older runs) */
    restoresAfterCalls: ({ context }) => restoresAfterCalls(context),
    /** stories: prd.yaml was edited (STORIES_CHANGED) while the restore that just ended was outstanding: it put the old file back */
    restoreAgain: ({ context }) => context.restoreAgain === true,
  },
});

/** Root-level handlers every lifecycle shares: external inputs accepted in any state. */
export const externalInputs = {
  SET_MAX_ITERATIONS: { actions: 'setMaxIterations' },
  BUDGET_RAISED: { actions: 'raiseBudget' },
  PROTECTION_REFRESHED: { actions: 'refreshProtection' },
} as const;

/** The initial context, from the journaled input. */
export function contextFromInput({ input }: { input: WorkInput }): WorkContext {
  return initialContext(input);
}
