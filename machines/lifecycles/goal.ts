// The goal lifecycle (DESIGN §2): an objective in goal.md, `accept` criteria yoke runs itself after
// every attempt, and budgets checked before every agent call.
//
// Each attempt: admission → worker → boundary check → acceptance (one `acceptance.check`: the
// accept commands, artifact bindings and journeys, with a report under .loop/proof/<run>/; then guards) →
// complete (exit 0) | retry with the failure as feedback in guard-results.md | blocked (exit 1):
// `no-progress` when three attempts in a row fail with the same fingerprint (the second asks the
// worker for a focused diagnosis first), `attempts` at max-iterations. A breached budget holds the
// run until `yoke budget` raises it (reason `budget:<dimension>`).
import { createWorkMachine } from '../work/work-machine.js';
import { workLifecycle } from './work-lifecycle.js';

/** Bump when a change would make old journals fold differently. */
export const GOAL_MACHINE_VERSION = 1;

/** What the machine and the descriptor share: the name, the unit of work and the plan file. */
const GOAL = { name: 'goal', unit: 'attempt', planFile: 'goal.md' } as const;

export const goalMachine = createWorkMachine({ ...GOAL, judged: false, goal: true });

/** The goal lifecycle, as everything outside machines/ sees it. */
export const goalLifecycle = workLifecycle({
  ...GOAL,
  summary: "attempts at goal.md until yoke's own accept checks pass, within budgets",
  machine: goalMachine,
  version: GOAL_MACHINE_VERSION,
  prompts: { worker: ['prompts/goal.md'] },
  diagnosePrompt: 'prompts/goal-diagnose.md',
  acceptanceEngine: 'check',
  features: ['acceptance'],
  fleet: true,
  finished: (reason, c) => {
    switch (reason) {
      case 'goal-complete':
        return `goal complete after ${c.iteration ?? '?'} attempt(s): every acceptance check passed`;
      case 'no-progress':
        return 'goal blocked (no-progress): three attempts in a row failed the same way; see .loop/guard-results.md';
      case 'attempts':
        return `goal blocked (attempts): ${c.maxIterations ?? '?'} attempts without passing the acceptance checks`;
      default:
        return null;
    }
  },
  init: {
    files: {
      'yoke.conf': 'init/goal/yoke.conf',
      'protocol.md': 'init/goal/protocol.md',
      'goal.md': 'init/goal/goal.md',
      'notes.md': 'init/goal/notes.md',
      '.gitignore': 'init/loop/gitignore',
    },
    spec: ['protocol.md', 'goal.md', 'yoke.conf'],
  },
});
