// The spec restore right after an agent call (spec 1.1, DESIGN §1), in runs whose input asks for it:
// whatever the agent did to a spec file is undone before anything reads the files or commits them.
import { request } from '../effects.js';
import { heldSpecFiles, restoresAfterCalls, type WorkContext } from './work-context.js';
import { workSetup } from './work-setup.js';

/** Which spec files a restore puts back: all the run holds, or (after the scoper, whose sub-plan is its output) only the run's own. */
export type RestoreScope = 'held' | 'run';

function specFilesOf(context: WorkContext, scope: RestoreScope): Record<string, string | null> {
  return scope === 'held' ? heldSpecFiles(context) : context.baseline?.specFiles ?? {};
}

/**
 * Where an agent call's normal exit goes: `exited` passes through `restoring` (a `spec.restore`)
 * to `next` when the run restores after calls, else straight to `next`, as runs journaled before
 * that did (an eventless step: the requests and events of those runs stay the same).
 * @example afterCallStates('workerExited', 'restoringAfterWorker', 'readingNotes', 'held')
 */
export function afterCallStates(exited: string, restoring: string, next: string, scope: RestoreScope) {
  const S = workSetup.createStateConfig;
  return {
    [exited]: S({
      always: [
        { guard: ({ context }) => restoresAfterCalls(context), target: restoring },
        { target: next },
      ],
    }),
    [restoring]: S({
      entry: { type: 'request', params: ({ context }) => request('spec.restore', { specFiles: specFilesOf(context, scope) }) },
      on: { SPEC_RESTORED: next },
    }),
  };
}
