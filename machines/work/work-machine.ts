// Builds a whole-run machine (loop, brute or goal) from the shared work-loop states.
import { preparingState } from './start-run.js';
import { workLoopStates, type WorkLoopOptions } from './work-loop.js';
import { contextFromInput, externalInputs, workSetup } from './work-setup.js';

/** How a whole-run work machine is built: its loop's options, named after the lifecycle (the machine's id). */
export type WorkMachineOptions = Omit<WorkLoopOptions, 'terminal'>;

/** A run that backs up the spec, then iterates until success, a cap, a judge bailout (brute) or no progress (goal). */
export function createWorkMachine(options: WorkMachineOptions) {
  return workSetup.createMachine({
    id: options.name,
    context: contextFromInput,
    on: externalInputs,
    initial: 'preparing',
    states: {
      preparing: preparingState('restoring'),
      ...workLoopStates({ ...options, goal: options.goal ?? false, terminal: true }),
    },
    output: ({ context }) => context.outcome ?? { exitCode: 1, reason: 'max-iterations', iterations: context.iteration },
  });
}
