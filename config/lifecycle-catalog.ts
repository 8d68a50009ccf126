// What config validation knows about the lifecycles: each one's name, the agent roles it calls and
// the features that directives depend on. config/ never lists the lifecycles itself: the catalog
// comes from the caller (machines/lifecycles/registry.ts, or any list a test builds), so adding a
// lifecycle never touches this floor.

/** The agent roles a lifecycle can call (`YOKE_ROLE`). */
export const AGENT_ROLES = ['worker', 'judge', 'scoper'] as const;
export type AgentRole = (typeof AGENT_ROLES)[number];

/**
 * What a lifecycle does beyond the iteration every lifecycle has; the directives that shape it
 * apply only where it exists. `judged`: a judge must say PASS to a DONE (`judge-every`,
 * `max-judge-failures`). `chunks`: the work is cut into chunks (`max-chunks`). `acceptance`: yoke's
 * own `accept` criteria decide success, so at least one is required. `stories`: the work is a story
 * list in prd.yaml (`review`, `max-story-attempts`, `on-story-blocked`).
 */
export const LIFECYCLE_FEATURES = ['judged', 'chunks', 'acceptance', 'stories'] as const;
export type LifecycleFeature = (typeof LIFECYCLE_FEATURES)[number];

/** One lifecycle as config validation sees it. */
export interface LifecycleTraits {
  /** the mode name: `mode <name>` in yoke.conf */
  readonly name: string;
  /** every role it may call, in the order worker, judge, scoper */
  readonly roles: readonly AgentRole[];
  readonly features: readonly LifecycleFeature[];
}

/** The lifecycles a config may name, in the order messages list them. */
export type LifecycleCatalog = readonly LifecycleTraits[];

/** The catalog's names in order. */
export function lifecycleNames(catalog: LifecycleCatalog): string[] {
  return catalog.map((lifecycle) => lifecycle.name);
}

/** The lifecycle called `name`, or undefined. */
export function findLifecycle(catalog: LifecycleCatalog, name: string): LifecycleTraits | undefined {
  return catalog.find((lifecycle) => lifecycle.name === name);
}

/**
 * The first name, written `template` (`mode loop`), followed by the others as alternatives.
 * @example withAlternatives(catalog, (name) => `\`mode ${name}\``) // '`mode loop` (or brute, saga, goal)'
 */
export function withAlternatives(catalog: LifecycleCatalog, template: (name: string) => string): string {
  const [first, ...others] = lifecycleNames(catalog);
  if (first === undefined) return template('<mode>');
  return others.length === 0 ? template(first) : `${template(first)} (or ${others.join(', ')})`;
}
