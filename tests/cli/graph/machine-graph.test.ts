// cli/graph/machine-graph.ts: every lifecycle's structure, cross-checked with xstate/graph.
import { toDirectedGraph, type DirectedGraphNode } from 'xstate/graph';
import { describe, expect, it } from 'vitest';
import { LIFECYCLE_REGISTRY, LIFECYCLES, type Lifecycle } from '../../../machines/lifecycles/registry.js';
import { lineage, machineGraph, stateByPath } from '../../../cli/graph/machine-graph.js';

const lifecycles = LIFECYCLE_REGISTRY;

/** Every (source, target, event) edge xstate/graph sees, nested nodes included. */
function directedEdges(node: DirectedGraphNode): string[] {
  const own = node.edges.map((edge) => `${edge.source.id} -> ${edge.target.id} on ${edge.transition.eventType}`);
  return [...own, ...node.children.flatMap(directedEdges)];
}

function directedNodes(node: DirectedGraphNode): string[] {
  return [node.id, ...node.children.flatMap(directedNodes)];
}

describe.each(lifecycles.map((l) => [l.name, l] as const))('machineGraph(%s)', (_name, lifecycle) => {
  const graph = machineGraph(lifecycle.name, lifecycle.version, lifecycle.machine);

  it('has every state node xstate/graph has, with its parent and children', () => {
    expect(graph.states.map((s) => s.id).sort()).toEqual(directedNodes(toDirectedGraph(lifecycle.machine)).sort());
    for (const state of graph.states) {
      for (const child of state.children) expect(graph.states.find((s) => s.id === child)?.parent).toBe(state.id);
    }
  });

  it('has exactly the evented transitions xstate/graph has (it draws a targetless one as a self-loop)', () => {
    const ours = graph.transitions
      .filter((t) => t.event !== null)
      .flatMap((t) => (t.targets.length === 0 ? [t.source] : t.targets).map((target) => `${t.source} -> ${target} on ${t.event ?? ''}`));
    expect(new Set(ours)).toEqual(new Set(directedEdges(toDirectedGraph(lifecycle.machine))));
  });

  it('also has the eventless (`always`) transitions, which xstate/graph leaves out', () => {
    const always = lifecycle.machine.root;
    const count = (node: typeof always): number => (node.always?.length ?? 0) + Object.values(node.states).reduce((sum, child) => sum + count(child), 0);
    expect(graph.transitions.filter((t) => t.event === null)).toHaveLength(count(always));
  });

  it('names guards (anonymous ones `inline`) and finds states by the path text replay shows', () => {
    for (const transition of graph.transitions) expect(transition.guard === null || transition.guard.length > 0).toBe(true);
    const leaf = graph.states.find((s) => s.type === 'atomic');
    expect(leaf && stateByPath(graph, leaf.path.join('.'))).toBe(leaf);
    expect(leaf && lineage(graph, leaf).at(-1)?.id).toBe(graph.root);
  });
});

describe('machineGraph(loop)', () => {
  it('reads the loop as the design draws it', () => {
    const loop = LIFECYCLES.loop as Lifecycle;
    const graph = machineGraph('loop', loop.version, loop.machine);
    expect(graph.states.filter((s) => s.type === 'final').map((s) => s.key).sort()).toEqual(['done', 'exhausted']);
    expect(graph.transitions).toContainEqual(expect.objectContaining({ source: 'loop.routingChecks', targets: ['loop.reporting'], event: null, guard: 'boundaryBroken' }));
    expect(graph.transitions).toContainEqual(expect.objectContaining({ source: 'loop', targets: [], event: 'SET_MAX_ITERATIONS' }));
    expect(graph.states.find((s) => s.key === 'working')?.entry).toEqual(['request']);
  });
});
