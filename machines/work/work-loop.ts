// The states of one work loop, shared by loop, brute, goal and each saga chunk: the worker's turn
// (restore → worker → checks → report), the judge (when judged), settling (commit → next iteration),
// and the final states, with call admission (budgets) before every agent call.
//
// Pure: every state that needs the world emits one `request` action; its result comes back as an
// event. Options only change which states exist and where they lead, decided when the machine is built.
import { finalStates } from './final-states.js';
import { settleStates, turnStates } from './iteration-states.js';
import { judgeStates } from './judge-states.js';
import type { WorkLoopOptions } from './work-loop-options.js';

export type { WorkLoopOptions } from './work-loop-options.js';

/** The states of one work loop; the caller adds `preparing` (root) or a chunk wrapper (saga). */
export function workLoopStates(o: WorkLoopOptions) {
  return {
    ...turnStates(o),
    ...judgeStates(o),
    ...settleStates(o),
    ...finalStates(o),
  };
}
