// The brute lifecycle (DESIGN §2, spec §2): the loop, plus a fresh judge that must say PASS.
//
// When the worker says DONE and every guard passes, a judge agent reads judge.md and writes
// verdict.md. PASS ends the run (exit 0). FAIL resets only the first line of notes.md to
// `STATUS: IN_PROGRESS` and the worker continues, seeing the verdict; the Nth consecutive FAIL
// (`max-judge-failures N`) bails out (exit 1) leaving verdict.md on disk. `judge-every K` adds
// feedback judgments every K iterations; only DONE-triggered judgments count toward the bailout.
import { createWorkMachine } from '../work/work-machine.js';
import { workLifecycle } from './work-lifecycle.js';

/** Bump when a change would make old journals fold differently. */
export const BRUTE_MACHINE_VERSION = 1;

/** What the machine and the descriptor share: the name, the unit of work and the plan file. */
const BRUTE = { name: 'brute', unit: 'iteration', planFile: 'plan.md' } as const;

export const bruteMachine = createWorkMachine({ ...BRUTE, judged: true });

/** The brute lifecycle, as everything outside machines/ sees it. */
export const bruteLifecycle = workLifecycle({
  ...BRUTE,
  summary: 'the loop, plus a fresh judge that must say PASS before it is done',
  machine: bruteMachine,
  version: BRUTE_MACHINE_VERSION,
  // The worker is told about the judge (worker-judged.md is appended to its template).
  prompts: { worker: ['prompts/worker.md', 'prompts/worker-judged.md'], judge: ['prompts/judge.md'] },
  features: ['judged'],
  init: {
    files: {
      'yoke.conf': 'init/brute/yoke.conf',
      'protocol.md': 'init/brute/protocol.md',
      'plan.md': 'init/loop/plan.md',
      'judge.md': 'init/brute/judge.md',
      'notes.md': 'init/loop/notes.md',
      '.gitignore': 'init/loop/gitignore',
    },
    spec: ['protocol.md', 'plan.md', 'judge.md', 'yoke.conf'],
  },
});
