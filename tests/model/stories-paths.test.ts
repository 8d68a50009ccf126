// The stories machine's graph paths (support/stories-models.ts), each executed against the real runner
// in a real workspace with the scripted agent and checks, checked after every step (the state, the
// requests, prd.yaml's passes flags, each pass's one commit with its trailers, DECISIONS.md,
// guard-results.md); and the coverage of the machine by what was executed.
import { describeExecutedPaths, PROTECT_LEFT_OUT, TOOL_HOLD_LEFT_OUT } from './support/describe-executed-paths.js';
import { STORIES_MODELS } from './support/stories-models.js';

describeExecutedPaths({
  machine: 'stories',
  models: STORIES_MODELS,
  // The worker scribbles protocol.md and prd.yaml: the restore right after its call puts prd.yaml
  // back before story.pass writes the flag (the model of an older run, which restores only before
  // the next iteration, sets its own planFile null).
  planFile: 'prd.yaml',
  unreachable: {
    'stories.judged always #2 → stories.settling': 'the judge runs only after a DONE here (no `judge-every` cadence in this mode), so a verdict is a DONE-triggered FAIL or a PASS',
  },
  // The context layer's read before each agent call is executed here (the context model), so only these are left out:
  leftOut: [
    PROTECT_LEFT_OUT,
    TOOL_HOLD_LEFT_OUT,
    {
      match: /stories\.accepting\b/,
      reason: "a story's `journey:` checks (one acceptance.check: a real flow in Chromium against a web application, which this world "
        + 'does not run): the graph test (tests/machines/lifecycles/stories.test.ts, its journeys models) takes every transition on the '
        + 'pure machine with the §8 ledger, and tests/e2e/stories-journey.test.ts runs it for real',
    },
    {
      match: /stories\.parallel|SET_PARALLEL/,
      reason: '`parallel N` (DESIGN §10) runs lanes in git worktrees under a coordinator with its own graph model '
        + '(tests/machines/lifecycles/parallel.test.ts) and end-to-end test (tests/e2e/parallel.test.ts); these models are serial',
    },
  ],
});
