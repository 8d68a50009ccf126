// Call admission before every agent call (budgets): read the clock when a wall budget needs it, then hold or go.
import { assign } from 'xstate';
import { request } from '../effects.js';
import { budgetBreached, injectsContext } from './work-context.js';
import { DEFAULT_CONTEXT_BUDGET } from '../context/context-files.js';
import { workSetup } from './work-setup.js';
import type { WorkContext } from './work-context.js';

/**
 * Admission before an agent call: read the clock if a wall budget needs it, then hold or go. With
 * the context layer, going means reading `.yoke/context/` first (DESIGN §9): the block the call's
 * prompt opens with, journaled, so replay never reads the files.
 */
export function gateStates(prefix: 'worker' | 'judge' | 'scoper', target: string, countsAsAttempt: boolean) {
  const gate = `${prefix}Gate`;
  const admitted = ({ context }: { context: WorkContext }): Partial<WorkContext> => ({
    clockFresh: false,
    spent: countsAsAttempt ? { ...context.spent, attempts: context.spent.attempts + 1 } : context.spent,
  });
  return {
    [gate]: workSetup.createStateConfig({
      always: [
        { guard: 'needsClock', target: `${prefix}Clock` },
        {
          guard: { type: 'overBudget', params: { attempt: countsAsAttempt } },
          target: `${prefix}Hold`,
          actions: assign({ blockedOn: ({ context }) => budgetBreached(context, countsAsAttempt) }),
        },
        { guard: ({ context }) => injectsContext(context), target: `${prefix}Context`, actions: assign(admitted) },
        { target, actions: assign(admitted) },
      ],
    }),
    [`${prefix}Context`]: workSetup.createStateConfig({
      entry: { type: 'request', params: ({ context }) => request('context.read', { budget: context.config.contextBudget ?? DEFAULT_CONTEXT_BUDGET }) },
      on: {
        CONTEXT_READ: { target, actions: assign({ contextBlock: ({ event }) => event.result.block, contextGuard: ({ event }) => event.result.guard }) },
      },
    }),
    [`${prefix}Clock`]: workSetup.createStateConfig({
      entry: { type: 'request', params: () => request('clock.read', { purpose: `admission of a ${prefix} call` }) },
      on: {
        CLOCK_READ: {
          target: gate,
          actions: assign(({ context, event }) => ({ now: event.result.now, runStartedAt: context.runStartedAt ?? event.result.now, clockFresh: true })),
        },
      },
    }),
    // Not final: the run waits here until `yoke budget` raises the ceiling (or `--fresh`).
    [`${prefix}Hold`]: workSetup.createStateConfig({
      tags: ['paused'],
      on: { BUDGET_RAISED: { target: gate, actions: 'raiseBudget' } },
    }),
  };
}
