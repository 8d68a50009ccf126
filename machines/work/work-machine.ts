// Builds a whole-run machine (loop, brute or goal) from the shared work-loop states.
import { enqueueActions } from 'xstate';
import { enqueueHooks } from './enqueue-hooks.js';
import { startRun } from './start-run.js';
import { workLoopStates } from './work-loop.js';
import { contextFromInput, externalInputs, workSetup } from './work-setup.js';

/** A run that backs up the spec, then iterates until success, a cap, a judge bailout (brute) or no progress (goal). */
export function createWorkMachine(id: 'loop' | 'brute' | 'goal', options: { judged: boolean; goal?: boolean }) {
  return workSetup.createMachine({
    id,
    context: contextFromInput,
    on: externalInputs,
    initial: 'preparing',
    states: {
      preparing: {
        ...startRun,
        on: {
          BASELINE_CAPTURED: {
            target: 'restoring',
            actions: enqueueActions(({ context, event, enqueue }) => {
              enqueue.assign({ baseline: event.result });
              enqueueHooks(enqueue, context.config, 'iteration-start', context.iteration);
            }),
          },
        },
      },
      ...workLoopStates({ judged: options.judged, goal: options.goal ?? false, terminal: true, planFile: id === 'goal' ? 'goal.md' : 'plan.md' }),
    },
    output: ({ context }) => context.outcome ?? { exitCode: 1, reason: 'max-iterations', iterations: context.iteration },
  });
}
