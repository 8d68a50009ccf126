// The first state of every run: `run-start` hooks, then back up the spec and capture the baseline tree.
import { enqueueActions } from 'xstate';
import { request } from '../effects.js';
import { enqueueHooks } from './enqueue-hooks.js';
import { ignoredParams } from './work-context.js';
import { workSetup } from './work-setup.js';

/** Every run's first state starts this way: `run-start` hooks, then back up the spec and capture the baseline tree. */
export const startRun = workSetup.createStateConfig({
  entry: enqueueActions(({ context, enqueue }) => {
    enqueueHooks(enqueue, context.config, 'run-start', 0);
    enqueue({ type: 'request', params: request('baseline.capture', { specFiles: context.specFiles, ...ignoredParams(context.config) }) });
  }),
});

/** The first state of a run that goes on to `target` once the baseline is captured (the first iteration's hooks fire then). */
export function preparingState(target: string) {
  return workSetup.createStateConfig({
    ...startRun,
    on: {
      BASELINE_CAPTURED: {
        target,
        actions: enqueueActions(({ context, event, enqueue }) => {
          enqueue.assign({ baseline: event.result });
          enqueueHooks(enqueue, context.config, 'iteration-start', context.iteration);
        }),
      },
    },
  });
}
