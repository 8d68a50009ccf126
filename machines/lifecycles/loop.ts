// The loop lifecycle (DESIGN §2, spec §1): iterate until the worker says DONE and every guard passes.
//
// The machine never performs I/O. Each state that needs the world emits a `request` action whose
// params are an EffectRequest decided purely from context; the runner journals and executes it
// and feeds the result back as the matching event (machines/effect-events.ts). Replaying the same
// events therefore reproduces the same states and the same requests, byte for byte.
import { createWorkMachine } from '../work/work-machine.js';

export { notesSayDone } from '../work/work-context.js';
export type { RunOutput as LoopOutput, WorkContext as LoopContext, WorkInput as LoopInput } from '../work/work-context.js';
export { planChecks } from '../work/plan-checks.js';

/** Bump when a change would make old journals fold differently (replay refuses other versions). */
export const LOOP_MACHINE_VERSION = 1;

export const loopMachine = createWorkMachine({ name: 'loop', unit: 'iteration', planFile: 'plan.md', judged: false });
