// Every lifecycle yoke runs. Adding one is its own files plus one line in LIFECYCLE_REGISTRY.
import { bruteLifecycle } from './brute.js';
import { goalLifecycle } from './goal.js';
import type { LifecycleFeature } from '../../config/lifecycle-catalog.js';
import type { LifecycleDescriptor } from './lifecycle-descriptor.js';
import { loopLifecycle } from './loop.js';
import { sagaLifecycle } from './saga.js';
import { storiesLifecycle } from './stories.js';

export type { Lifecycle, LifecycleDescriptor } from './lifecycle-descriptor.js';

/** The lifecycles, in the order help texts and messages list them (the first is the example one). */
export const LIFECYCLE_REGISTRY: readonly LifecycleDescriptor[] = [
  loopLifecycle,
  bruteLifecycle,
  sagaLifecycle,
  goalLifecycle,
  storiesLifecycle,
];

/**
 * The lifecycles by name: `mode` in yoke.conf, `mode` of a run's `run.started`. No prototype, so a
 * name read from a file (`constructor`, `__proto__`) finds nothing rather than an Object member.
 */
export const LIFECYCLES: Readonly<Record<string, LifecycleDescriptor>> = Object.freeze(Object.assign(
  Object.create(null) as Record<string, LifecycleDescriptor>,
  Object.fromEntries(LIFECYCLE_REGISTRY.map((lifecycle) => [lifecycle.name, lifecycle])),
));

/** The lifecycle called `name`, or undefined (an unknown mode, or one this yoke does not have). */
export function lifecycleNamed(name: string): LifecycleDescriptor | undefined {
  return LIFECYCLES[name];
}

/** Does the lifecycle called `name` have `feature` (`stories`: its work is a story list in prd.yaml)? False for a mode this yoke lacks. */
export function lifecycleHas(name: string, feature: LifecycleFeature): boolean {
  return LIFECYCLES[name]?.features.includes(feature) === true;
}
