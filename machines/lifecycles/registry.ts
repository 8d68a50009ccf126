// The lifecycle machines by mode, with the version each run records.
import type { AnyStateMachine } from 'xstate';
import type { Mode } from '../../config/types.js';
import { BRUTE_MACHINE_VERSION, bruteMachine } from './brute.js';
import { GOAL_MACHINE_VERSION, goalMachine } from './goal.js';
import { LOOP_MACHINE_VERSION, loopMachine } from './loop.js';
import { SAGA_MACHINE_VERSION, sagaMachine } from './saga.js';

/** A lifecycle machine and the version journaled with its runs. */
export interface Lifecycle {
  name: string;
  version: number;
  machine: AnyStateMachine;
}

/** Modes whose machine exists; the others are refused with a clear message until they land. */
export const LIFECYCLES: Partial<Record<Mode, Lifecycle>> = {
  loop: { name: 'loop', version: LOOP_MACHINE_VERSION, machine: loopMachine },
  brute: { name: 'brute', version: BRUTE_MACHINE_VERSION, machine: bruteMachine },
  saga: { name: 'saga', version: SAGA_MACHINE_VERSION, machine: sagaMachine },
  goal: { name: 'goal', version: GOAL_MACHINE_VERSION, machine: goalMachine },
};
