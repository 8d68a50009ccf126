// Which machine folds a recorded run: the lifecycle with the name AND version the run was started
// with, never a newer one that might decide differently.
//
// When a change to a machine would make old journals fold differently, its version is bumped and
// the previous machine is kept (e.g. `machines/loop-v1.ts`) and listed in RETIRED_LIFECYCLES, so
// `yoke replay` and the golden journals in tests/golden/ keep folding every run ever recorded.
import { LIFECYCLE_REGISTRY, type Lifecycle } from '../../machines/lifecycles/registry.js';
import type { JournalRecord } from '../journal/record.js';
import { YokeError } from '../../errors/yoke-error.js';

type StartedRecord = Extract<JournalRecord, { type: 'run.started' }>;

/** Machines of earlier versions, kept only to replay the runs they recorded. */
export const RETIRED_LIFECYCLES: readonly Lifecycle[] = [];

/** Every lifecycle this yoke can fold: today's, then the retired ones. */
export function knownLifecycles(): Lifecycle[] {
  return [...LIFECYCLE_REGISTRY, ...RETIRED_LIFECYCLES];
}

/** The lifecycle that recorded `started`; refuses (exit 3) a machine or version this yoke lacks. */
export function lifecycleForRun(started: StartedRecord): Lifecycle {
  const known = knownLifecycles();
  const exact = known.find((lifecycle) => lifecycle.name === started.machine && lifecycle.version === started.mv);
  if (exact) return exact;
  const sameName = known.filter((lifecycle) => lifecycle.name === started.machine);
  if (sameName.length === 0) {
    throw new YokeError('workspace', `run ${started.run ?? '?'} was recorded with the ${started.machine ?? '?'} machine, which this yoke does not have; replay it with the yoke version that recorded it.`);
  }
  const versions = sameName.map((lifecycle) => `v${lifecycle.version}`).join(', ');
  throw new YokeError('workspace', `run ${started.run ?? '?'} was recorded with ${started.machine ?? '?'} machine v${started.mv ?? '?'}, but this yoke can fold ${versions} only; replay it with the yoke version that recorded it.`);
}
