// The order of severity of the tool classes: when one call does several things, the most severe wins.
//
// destructive > secret > protected > network > exec > edit > read. The three classes the shipped
// table refuses come first, ordered by how much a wrong "yes" costs and how well it can be undone:
// a deleted or truncated file may be gone for good; a secret, once read into a model's context, is
// exposed and cannot be taken back; a protected write (spec files, settings, `.git/`, the boundary)
// is undone by the spec restore or caught by the boundary scan. `destructive` and `secret` are also
// the two classes that take call-scope answers only, so ranking them highest keeps a call that does
// both one thing and the other under the stricter answer rule. Then `network` (held by default:
// it reaches outside the machine), `exec` (opaque but local), `edit` (a write the boundary allows)
// and `read`.
import type { ToolClass } from '../config/types.js';

/** The rank of each class; a higher rank is more severe. */
export const CLASS_SEVERITY: { readonly [C in ToolClass]: number } = {
  read: 0,
  edit: 1,
  exec: 2,
  network: 3,
  protected: 4,
  secret: 5,
  destructive: 6,
};

/** Orders classes most severe first (a comparator for `sort`). */
export function bySeverity(a: ToolClass, b: ToolClass): number {
  return CLASS_SEVERITY[b] - CLASS_SEVERITY[a];
}

/** The most severe of `classes`; `read` for none. */
export function mostSevere(classes: readonly ToolClass[]): ToolClass {
  return [...classes].sort(bySeverity)[0] ?? 'read';
}
