// cli/graph/mermaid.ts: a stateDiagram-v2 with the initial state, every arrow and every final state.
import { describe, expect, it } from 'vitest';
import { drawnEdges } from '../../../cli/graph/drawn-edges.js';
import { machineGraph } from '../../../cli/graph/machine-graph.js';
import { renderMermaid } from '../../../cli/graph/mermaid.js';
import { LIFECYCLE_REGISTRY, LIFECYCLES, type Lifecycle } from '../../../machines/lifecycles/registry.js';

const lifecycles = LIFECYCLE_REGISTRY;

describe.each(lifecycles.map((l) => [l.name, l] as const))('renderMermaid(%s)', (_name, lifecycle) => {
  const graph = machineGraph(lifecycle.name, lifecycle.version, lifecycle.machine);
  const text = renderMermaid(graph);
  const lines = text.split('\n');

  it('declares the diagram and enters the initial state', () => {
    expect(lines[0]).toBe('stateDiagram-v2');
    expect(lines).toContain('  [*] --> preparing');
  });

  it('draws one arrow per drawn edge and ends every final state', () => {
    expect(lines.filter((line) => / --> (?!\[\*\])\S+ : /.test(line))).toHaveLength(drawnEdges(graph).edges.length);
    for (const final of graph.states.filter((s) => s.type === 'final' && s.parent === graph.root)) expect(lines).toContain(`  ${final.key} --> [*]`);
  });

  it('keeps labels free of what ends a Mermaid label', () => {
    for (const line of lines.filter((l) => l.includes(' : '))) expect(line.split(' : ')[1]).not.toMatch(/[;#]/);
  });
});

describe('renderMermaid(loop)', () => {
  it('shows guarded eventless transitions and events that change no state', () => {
    const loop = LIFECYCLES.loop as Lifecycle;
    const text = renderMermaid(machineGraph('loop', loop.version, loop.machine));
    expect(text).toMatch(/^ {2}routingChecks --> reporting : always \[boundaryBroken/m);
    expect(text).toMatch(/^ {2}checking --> checking : CHECK_FINISHED/m);
    expect(text).toMatch(/note left of preparing : in every state, SET_MAX_ITERATIONS changes no state/);
  });
});
