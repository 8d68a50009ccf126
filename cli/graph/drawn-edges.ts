// The arrows of a diagram: transitions with the same source, target and event drawn as one arrow
// (`always [boundaryBroken | noChecksPlanned]`), and targetless ones listed apart.
import type { GraphTransition, MachineGraph } from './machine-graph.js';

/** One arrow. */
export interface DrawnEdge {
  /** stable within one graph: `e0`, `e1`, … in document order */
  id: string;
  source: string;
  target: string;
  event: string | null;
  /** the transitions this arrow stands for (indexes into `MachineGraph.transitions`) */
  transitions: number[];
  label: string;
}

/** A transition that changes no state (it only runs actions), e.g. `SET_MAX_ITERATIONS` on the root. */
export interface InternalEvent {
  source: string;
  label: string;
}

/** Arrows and internal events of `graph`. */
export function drawnEdges(graph: MachineGraph): { edges: DrawnEdge[]; internal: InternalEvent[] } {
  const groups = new Map<string, GraphTransition[]>();
  const internal: InternalEvent[] = [];
  for (const transition of graph.transitions) {
    if (transition.targets.length === 0) {
      internal.push({ source: transition.source, label: labelOf(transition.event, [transition.guard]) });
      continue;
    }
    for (const target of transition.targets) {
      const key = JSON.stringify([transition.source, target, transition.event]);
      const group = groups.get(key) ?? [];
      group.push(transition);
      groups.set(key, group);
    }
  }
  const edges = [...groups.entries()].map(([key, group], index): DrawnEdge => {
    const [source, target, event] = JSON.parse(key) as [string, string, string | null];
    return { id: `e${index}`, source, target, event, transitions: group.map((t) => t.index), label: labelOf(event, group.map((t) => t.guard)) };
  });
  return { edges, internal };
}

function labelOf(event: string | null, guards: ReadonlyArray<string | null>): string {
  const named = guards.filter((guard): guard is string => guard !== null);
  const guardText = named.length === 0 ? '' : ` [${named.join(' | ')}${named.length < guards.length ? ' | else' : ''}]`;
  return `${event ?? 'always'}${guardText}`;
}
