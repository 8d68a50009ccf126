// The goal machine's graph paths (support/path-models.ts), each executed against the real runner in a
// real workspace with the scripted agent and checks, checked after every step; and the coverage
// of the machine by what was executed.
import { describeExecutedPaths } from './support/describe-executed-paths.js';
import { GOAL_MODELS } from './support/path-models.js';

describeExecutedPaths({
  machine: 'goal',
  models: GOAL_MODELS,
  planFile: 'goal.md',
  unreachable: {
    // config/validate-config.ts refuses a goal without an `accept` criterion, and accepts are planned every attempt
    'goal.routingChecks always #1 [inline guard] → goal.reporting': 'goal mode needs at least one accept, so an attempt always plans a check',
  },
});
