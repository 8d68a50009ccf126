// The goal machine's graph paths (support/path-models.ts), each executed against the real runner in a
// real workspace with the scripted agent and checks, checked after every step; and the coverage
// of the machine by what was executed.
import { describeExecutedPaths } from './support/describe-executed-paths.js';
import { GOAL_MODELS } from './support/path-models.js';

describeExecutedPaths({
  machine: 'goal',
  models: GOAL_MODELS,
  planFile: 'goal.md',
  // Every guarded alternative is reachable: an attempt with no guard left to plan after its
  // acceptance check reports at once (the check engine's models take that path).
});
