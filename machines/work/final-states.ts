// How a work loop ends: done, exhausted (the cap), and per option no-progress (goal) or a judge bailout.
import { enqueueActions } from 'xstate';
import type { HookEvent } from '../../config/types.js';
import { enqueueHooks } from './enqueue-hooks.js';
import { protectionOutput, type RunOutput, type WorkContext } from './work-context.js';
import type { WorkLoopOptions } from './work-loop-options.js';
import { workSetup } from './work-setup.js';

function finalState(o: WorkLoopOptions, outcome: (context: WorkContext) => RunOutput, hook: HookEvent) {
  return workSetup.createStateConfig({
    type: 'final',
    entry: enqueueActions(({ context, enqueue }) => {
      enqueue.assign({ outcome: { ...outcome(context), ...protectionOutput(context) } });
      enqueueHooks(enqueue, context.config, 'iteration-end', context.iteration);
      if (o.terminal) enqueueHooks(enqueue, context.config, hook, context.iteration);
    }),
  });
}

/** The final states of a work loop; each records the outcome and fires `iteration-end` (and, for a whole run, `done` or `bailout`). */
export function finalStates(o: WorkLoopOptions) {
  return {
    done: finalState(o, (c) => ({ exitCode: 0, reason: o.goal ? 'goal-complete' : o.judged ? 'judge-pass' : 'done', iterations: c.iteration }), 'done'),
    exhausted: finalState(o, (c) => ({ exitCode: 1, reason: o.goal ? 'attempts' : 'max-iterations', iterations: c.iteration }), 'bailout'),
    ...(o.goal ? { noProgress: finalState(o, (c) => ({ exitCode: 1, reason: 'no-progress', iterations: c.iteration }), 'bailout') } : {}),
    ...(o.judged ? { bailedOut: finalState(o, (c) => ({ exitCode: 1, reason: 'judge-bailout', iterations: c.iteration }), 'bailout') } : {}),
  };
}
