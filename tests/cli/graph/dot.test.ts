// cli/graph/dot.ts (drawn by cli/graph/render-svg.ts): every lifecycle lays out with Graphviz (WASM),
// and a run's overlay colors exactly the states and arrows it visited.
import { describe, expect, it } from 'vitest';
import { renderDot } from '../../../cli/graph/dot.js';
import { drawnEdges } from '../../../cli/graph/drawn-edges.js';
import { machineGraph } from '../../../cli/graph/machine-graph.js';
import { renderSvg } from '../../../cli/graph/render-svg.js';
import { LIFECYCLE_REGISTRY, LIFECYCLES, type Lifecycle } from '../../../machines/lifecycles/registry.js';

const lifecycles = LIFECYCLE_REGISTRY;

describe.each(lifecycles.map((l) => [l.name, l] as const))('renderDot(%s)', (_name, lifecycle) => {
  const graph = machineGraph(lifecycle.name, lifecycle.version, lifecycle.machine);

  it('renders to an SVG with a node per state and an arrow per drawn edge', async () => {
    const svg = await renderSvg(renderDot(graph));
    expect(svg.startsWith('<svg')).toBe(true);
    for (const state of graph.states.filter((s) => s.children.length === 0)) expect(svg).toContain(`id="state:${state.id}"`);
    for (const edge of drawnEdges(graph).edges) expect(svg).toContain(`id="${edge.id}"`);
    // A compound state is a cluster: arrows attach inside it, and no stray node stands for it.
    for (const compound of graph.states.filter((s) => s.children.length > 0 && s.parent !== null)) {
      expect(svg).toContain(`<title>cluster_${compound.id}</title>`);
      expect(svg).not.toMatch(new RegExp(`class="node"[^>]*>\\s*<title>${compound.id.replace(/\./g, '\\.')}</title>`));
    }
  });
});

describe('renderDot with a run overlay', () => {
  it('colors visited states, the current one, and the arrows taken with their counts', () => {
    const loop = LIFECYCLES.loop as Lifecycle;
    const graph = machineGraph('loop', loop.version, loop.machine);
    const first = drawnEdges(graph).edges[0];
    const dot = renderDot(graph, { states: new Map([['loop.preparing', ['1 visit']]]), edges: new Map([[first?.id ?? '', 2]]), current: ['loop.restoring'] });
    expect(dot).toMatch(/"loop\.preparing" \[id="state:loop\.preparing", label="preparing\\n1 visit".*fillcolor="#dbeafe"/);
    expect(dot).toMatch(/"loop\.restoring" \[.*fillcolor="#dcfce7"/);
    expect(dot).toMatch(/\[id="e0", label="BASELINE_CAPTURED ×2", color="#2563eb"/);
    expect(dot).toMatch(/"loop\.done" \[.*fontcolor="#9ca3af"/);
  });
});

describe('renderDot with a parallel run overlay', () => {
  it('colors the parallel state\'s box with its figures, and gives the boxes inside it back their defaults and ids', () => {
    const stories = LIFECYCLES.stories as Lifecycle;
    const graph = machineGraph('stories', stories.version, stories.machine);
    const dot = renderDot(graph, { states: new Map([['stories.parallel', ['1× · 3.0s']], ['stories.parallel.lane1.working', ['1× · 1.0s']]]), edges: new Map(), current: ['stories.done'] });
    expect(dot).toMatch(/subgraph "cluster_stories\.parallel" \{\n\s*label="parallel\\n1× · 3\.0s"; style="rounded"; id="state:stories\.parallel"; color="#2563eb";/);
    expect(dot).toMatch(/subgraph "cluster_stories\.parallel\.lane1" \{\n\s*label="lane1"; style="rounded"; id="state:stories\.parallel\.lane1"; color="black"; fontcolor="black"; penwidth=1;/);
    expect(dot).toMatch(/"stories\.parallel\.lane1\.working" \[.*fillcolor="#dbeafe"/);
    // without an overlay, or outside a colored box, a box is as it always was
    expect(renderDot(graph)).toMatch(/subgraph "cluster_stories\.parallel" \{\n\s*label="parallel"; style="rounded";\n/);
  });
});
