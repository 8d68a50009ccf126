// The spec restore right after an agent call (spec 1.1, DESIGN §1), in runs whose input asks for it
// (`restoresAfterCalls`): whatever the agent did to a spec file is undone before anything reads the
// files or commits them. A call's normal exit takes the guard `restoresAfterCalls` to this state
// first; runs journaled without the flag go on as they did.
import { request } from '../effects.js';
import { heldSpecFiles, type WorkContext } from './work-context.js';
import { workSetup } from './work-setup.js';

/** Which spec files a restore puts back: all the run holds, or (after the scoper, whose sub-plan is its output) only the run's own. */
export type RestoreScope = 'held' | 'run';

function specFilesOf(context: WorkContext, scope: RestoreScope): Record<string, string | null> {
  return scope === 'held' ? heldSpecFiles(context) : context.baseline?.specFiles ?? {};
}

/**
 * The state between an agent call's normal exit and `next`: one `spec.restore`, then `next`.
 * @example afterCallRestore('readingNotes', 'held') // the worker's exit, before its notes are read
 */
export function afterCallRestore(next: string, scope: RestoreScope) {
  return workSetup.createStateConfig({
    entry: { type: 'request', params: ({ context }) => request('spec.restore', { specFiles: specFilesOf(context, scope) }) },
    on: { SPEC_RESTORED: next },
  });
}
