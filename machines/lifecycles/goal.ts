// The goal lifecycle (DESIGN §2): an objective in goal.md, `accept` criteria yoke runs itself after
// every attempt, and budgets checked before every agent call.
//
// Each attempt: admission → worker → boundary check → acceptance (accept commands, then guards) →
// complete (exit 0) | retry with the failure as feedback in guard-results.md | blocked (exit 1):
// `no-progress` when three attempts in a row fail with the same fingerprint (the second asks the
// worker for a focused diagnosis first), `attempts` at max-iterations. A breached budget holds the
// run until `yoke budget` raises it (reason `budget:<dimension>`).
import { createWorkMachine } from '../work/work-machine.js';

/** Bump when a change would make old journals fold differently. */
export const GOAL_MACHINE_VERSION = 1;

export const goalMachine = createWorkMachine({ name: 'goal', unit: 'attempt', planFile: 'goal.md', judged: false, goal: true });
