// The brute machine's graph paths (support/path-models.ts), each executed against the real runner in a
// real workspace with the scripted agent and checks, checked after every step; and the coverage
// of the machine by what was executed.
import { describeExecutedPaths } from './support/describe-executed-paths.js';
import { BRUTE_MODELS } from './support/path-models.js';

describeExecutedPaths({ machine: 'brute', models: BRUTE_MODELS, planFile: 'plan.md' });
