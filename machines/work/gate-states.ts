// Call admission before every agent call (budgets): read the clock when a wall budget needs it, then hold or go.
import { assign } from 'xstate';
import { request } from '../effects.js';
import { budgetBreached } from './work-context.js';
import { workSetup } from './work-setup.js';

/** Admission before an agent call: read the clock if a wall budget needs it, then hold or go. */
export function gateStates(prefix: 'worker' | 'judge' | 'scoper', target: string, countsAsAttempt: boolean) {
  const gate = `${prefix}Gate`;
  return {
    [gate]: workSetup.createStateConfig({
      always: [
        { guard: 'needsClock', target: `${prefix}Clock` },
        {
          guard: { type: 'overBudget', params: { attempt: countsAsAttempt } },
          target: `${prefix}Hold`,
          actions: assign({ blockedOn: ({ context }) => budgetBreached(context, countsAsAttempt) }),
        },
        {
          target,
          actions: assign(({ context }) => ({
            clockFresh: false,
            spent: countsAsAttempt ? { ...context.spent, attempts: context.spent.attempts + 1 } : context.spent,
          })),
        },
      ],
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
