// The lifecycle machines by mode, with the version each run records.
import type { AnyStateMachine } from 'xstate';
import type { Mode } from '../config/types.js';
import { BRUTE_MACHINE_VERSION, bruteMachine } from './brute.js';
import { LOOP_MACHINE_VERSION, loopMachine } from './loop.js';

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
};
