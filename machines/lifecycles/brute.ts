// The brute lifecycle (DESIGN §2, spec §2): the loop, plus a fresh judge that must say PASS.
//
// When the worker says DONE and every guard passes, a judge agent reads judge.md and writes
// verdict.md. PASS ends the run (exit 0). FAIL resets only the first line of notes.md to
// `STATUS: IN_PROGRESS` and the worker continues, seeing the verdict; the Nth consecutive FAIL
// (`max-judge-failures N`) bails out (exit 1) leaving verdict.md on disk. `judge-every K` adds
// feedback judgments every K iterations; only DONE-triggered judgments count toward the bailout.
import { createWorkMachine } from '../work/work-machine.js';

/** Bump when a change would make old journals fold differently. */
export const BRUTE_MACHINE_VERSION = 1;

export const bruteMachine = createWorkMachine({ name: 'brute', unit: 'iteration', planFile: 'plan.md', judged: true });
