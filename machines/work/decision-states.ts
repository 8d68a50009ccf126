// The DECISIONS.md entry of an accepted unit of work (DESIGN §9), decided before its commit from
// journaled facts only: the clock, the passing attempt's notes and the plan the work followed.
import { assign } from 'xstate';
import { decisionEntry } from '../context/decision-entry.js';
import { decisionId, decisionTitle, type DecisionUnit } from '../context/decision-subject.js';
import { request } from '../effects.js';
import type { WorkContext } from './work-context.js';
import type { WorkLoopOptions } from './work-loop-options.js';
import { workSetup } from './work-setup.js';

/** What this loop's success is an entry for: a saga chunk, the goal, or the whole loop/brute run. */
export function decisionUnit(o: WorkLoopOptions, context: WorkContext): DecisionUnit {
  if (!o.terminal) return { kind: 'chunk', chunk: context.chunk };
  if (o.goal) return { kind: 'goal' };
  return { kind: 'run', run: context.contextLayer?.run ?? '' };
}

/** `{ decision }` for the commit's params when an entry was decided, absent otherwise (as in runs without the layer). */
export function decisionParams(context: WorkContext): { decision?: { entry: string } } {
  return context.decisionEntry === null ? {} : { decision: { entry: context.decisionEntry } };
}

/** clock → notes → plan → `committing`, each a journaled read; the last one decides the entry. */
export function decisionStates(o: WorkLoopOptions) {
  const S = workSetup.createStateConfig;
  return {
    decisionClock: S({
      entry: { type: 'request', params: () => request('clock.read', { purpose: 'the date of the DECISIONS.md entry' }) },
      on: { CLOCK_READ: { target: 'decisionNotes', actions: assign({ decisionNow: ({ event }) => event.result.now }) } },
    }),
    decisionNotes: S({
      entry: { type: 'request', params: () => request('file.read', { file: 'notes.md' }) },
      on: { FILE_READ: { target: 'decisionPlan', actions: assign({ decisionNotes: ({ event }) => event.result.content }) } },
    }),
    decisionPlan: S({
      entry: { type: 'request', params: () => request('file.read', { file: o.planFile }) },
      on: {
        FILE_READ: {
          target: 'committing',
          actions: assign(({ context, event }) => {
            const unit = decisionUnit(o, context);
            const id = decisionId(unit);
            const title = decisionTitle(unit, event.result.content, o.planFile);
            return { decisionEntry: decisionEntry({ now: context.decisionNow ?? 0, id, title, notes: context.decisionNotes }) };
          }),
        },
      },
    }),
  };
}
