// The spec restore right after an agent call (spec 1.1, DESIGN §1), in runs whose input asks for it
// (`restoresAfterCalls`): whatever the agent did to a spec file is undone before anything reads the
// files or commits them. A call's normal exit takes the guard `restoresAfterCalls` to this state
// first; runs journaled without the flag go on as they did. In runs that also protect every call
// (`protectAll`), the protect scan follows the restore, as the worker's follows its notes.
import { request } from '../effects.js';
import { heldSpecFiles, protectsEveryCall, type WorkContext } from './work-context.js';
import { workSetup } from './work-setup.js';

/** Which spec files a restore puts back: all the run holds, or (after the scoper, whose sub-plan is its output) only the run's own. */
export type RestoreScope = 'held' | 'run';

/** Where a restore goes next. */
export interface AfterRestore {
  /** the state after the restore */
  next: string;
  /** the protect scan to go to first in runs that protect every call (the judge's, the scoper's) */
  protect?: string;
  /** this state's own name, when a spec edit journaled while its restore was outstanding (stories: STORIES_CHANGED) restores again */
  again?: string;
}

function specFilesOf(context: WorkContext, scope: RestoreScope): Record<string, string | null> {
  return scope === 'held' ? heldSpecFiles(context) : context.baseline?.specFiles ?? {};
}

/**
 * SPEC_RESTORED's transitions: once more (re-entered) when a spec edit was journaled while the
 * restore was outstanding (its request was decided before the edit; an older yoke put the
 * old file back then, today's puts back the edit and the second restore finds nothing to do),
 * else the protect scan when the run protects every call, else `next`.
 */
export function afterRestoreTransitions(then: AfterRestore) {
  if (then.again === undefined && then.protect === undefined) return then.next;
  return [
    ...(then.again !== undefined ? [{ guard: 'restoreAgain' as const, target: then.again, reenter: true }] : []),
    ...(then.protect !== undefined ? [{ guard: ({ context }: { context: WorkContext }) => protectsEveryCall(context), target: then.protect }] : []),
    { target: then.next },
  ];
}

/**
 * The state between an agent call's normal exit and what follows it: one `spec.restore`, then
 * `then.next` (or the protect scan first, or the restore again; see afterRestoreTransitions).
 * @example afterCallRestore({ next: 'readingNotes' }, 'held') // the worker's exit, before its notes are read
 */
export function afterCallRestore(then: AfterRestore, scope: RestoreScope) {
  return workSetup.createStateConfig({
    entry: then.again === undefined
      ? { type: 'request', params: ({ context }) => request('spec.restore', { specFiles: specFilesOf(context, scope) }) }
      // a restore decided now asks for the files as the run holds them (see afterRestoreTransitions)
      : [{ type: 'request', params: ({ context }) => request('spec.restore', { specFiles: specFilesOf(context, scope) }) }, 'clearRestoreAgain'],
    on: { SPEC_RESTORED: afterRestoreTransitions(then) },
  });
}
