// The loop lifecycle (DESIGN §2, spec §1): iterate until the worker says DONE and every guard passes.
//
// The machine never performs I/O. Each state that needs the world emits a `request` action whose
// params are an EffectRequest decided purely from context; the runner journals and executes it
// and feeds the result back as the matching event (machines/effect-events.ts). Replaying the same
// events therefore reproduces the same states and the same requests, byte for byte.
import { createWorkMachine } from '../work/work-machine.js';
import { workLifecycle } from './work-lifecycle.js';

export { notesSayDone } from '../work/work-context.js';
export type { RunOutput as LoopOutput, WorkContext as LoopContext, WorkInput as LoopInput } from '../work/work-context.js';
export { planChecks } from '../work/plan-checks.js';

/** Bump when a change would make old journals fold differently (replay refuses other versions). */
export const LOOP_MACHINE_VERSION = 1;

/** What the machine and the descriptor share: the name, the unit of work and the plan file. */
const LOOP = { name: 'loop', unit: 'iteration', planFile: 'plan.md' } as const;

export const loopMachine = createWorkMachine({ ...LOOP, judged: false });

/** The loop lifecycle, as everything outside machines/ sees it. */
export const loopLifecycle = workLifecycle({
  ...LOOP,
  summary: 'iterations until notes.md says DONE and every guard passes',
  machine: loopMachine,
  version: LOOP_MACHINE_VERSION,
  prompts: { worker: ['prompts/worker.md'] },
  features: [],
  init: {
    files: {
      'yoke.conf': 'init/loop/yoke.conf',
      'protocol.md': 'init/loop/protocol.md',
      'plan.md': 'init/loop/plan.md',
      'notes.md': 'init/loop/notes.md',
      '.gitignore': 'init/loop/gitignore',
    },
    spec: ['protocol.md', 'plan.md', 'yoke.conf'],
  },
});
