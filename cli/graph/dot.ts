// A machine as Graphviz DOT, optionally with a replayed run drawn on it (`yoke replay --html`).
import { drawnEdges } from './drawn-edges.js';
import type { GraphState, MachineGraph } from './machine-graph.js';

/** What a run adds to the diagram: per-state lines and emphasis, per-arrow counts. */
export interface DotOverlay {
  /** state id → extra label lines (visits, time, cost); states absent here were never visited */
  states: ReadonlyMap<string, string[]>;
  /** arrow id (`e3`) → how many times the run took it */
  edges: ReadonlyMap<string, number>;
  /** ids of the states the run ended in */
  current: readonly string[];
}

const VISITED = '#2563eb';
const CURRENT = '#16a34a';
const IDLE = '#9ca3af';

/** Render `graph` as DOT; with an overlay, the run's path is drawn in color with counts. */
export function renderDot(graph: MachineGraph, overlay?: DotOverlay): string {
  const byId = new Map(graph.states.map((state) => [state.id, state]));
  const lines = [
    `digraph ${quote(graph.name)} {`,
    `  graph [rankdir=TB, compound=true, fontname="Helvetica", fontsize=11, nodesep=0.35, ranksep=0.45, labelloc=b, label=${quote(caption(graph))}];`,
    '  node [shape=box, style="rounded", fontname="Helvetica", fontsize=11, margin="0.15,0.06"];',
    '  edge [fontname="Helvetica", fontsize=9, arrowsize=0.7];',
  ];
  const root = byId.get(graph.root);
  const emit = (state: GraphState, indent: string, inColored = false): void => {
    if (state.initial) {
      lines.push(`${indent}${quote(`${state.id}#initial`)} [shape=point, width=0.12, label=""];`);
      lines.push(`${indent}${quote(`${state.id}#initial`)} -> ${quote(leafOf(byId, state.initial, 'target'))};`);
    }
    for (const childId of state.children) {
      const child = byId.get(childId);
      if (!child) continue;
      if (child.children.length > 0) {
        const attributes = clusterAttributes(child, overlay, inColored);
        lines.push(`${indent}subgraph ${quote(`cluster_${child.id}`)} {`, `${indent}  ${attributes.text}`);
        emit(child, `${indent}  `, inColored || attributes.colored);
        lines.push(`${indent}}`);
      } else {
        lines.push(`${indent}${quote(child.id)} [${nodeAttributes(child, overlay).join(', ')}];`);
      }
    }
  };
  if (root) emit(root, '  ');
  for (const edge of drawnEdges(graph).edges) {
    const count = overlay?.edges.get(edge.id) ?? 0;
    const attributes = [`id=${quote(edge.id)}`, `label=${quote(count > 0 ? `${edge.label} ×${count}` : edge.label)}`];
    if (overlay) attributes.push(...(count > 0 ? [`color="${VISITED}"`, `fontcolor="${VISITED}"`, `penwidth=${Math.min(1.6 + count * 0.4, 4).toFixed(1)}`] : [`color="${IDLE}"`, `fontcolor="${IDLE}"`]));
    if (edge.event === null) attributes.push('style=dashed');
    // A compound state is a cluster, not a node: the arrow goes to (from) a node inside it and is clipped at its border.
    const source = leafOf(byId, edge.source, 'source');
    const target = leafOf(byId, edge.target, 'target');
    if (source !== edge.source) attributes.push(`ltail=${quote(`cluster_${edge.source}`)}`);
    if (target !== edge.target) attributes.push(`lhead=${quote(`cluster_${edge.target}`)}`);
    lines.push(`  ${quote(source)} -> ${quote(target)} [${attributes.join(', ')}];`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

function nodeAttributes(state: GraphState, overlay: DotOverlay | undefined): string[] {
  const extra = overlay?.states.get(state.id);
  const label = [state.key, ...(extra ?? [])].join('\n');
  const attributes = [`id=${quote(`state:${state.id}`)}`, `label=${quote(label)}`];
  if (state.type === 'final') attributes.push('peripheries=2');
  if (overlay) {
    const current = overlay.current.includes(state.id);
    if (current) attributes.push(`color="${CURRENT}"`, 'penwidth=2.5', 'style="rounded,filled"', 'fillcolor="#dcfce7"');
    else if (extra) attributes.push(`color="${VISITED}"`, 'penwidth=1.8', 'style="rounded,filled"', 'fillcolor="#dbeafe"');
    else attributes.push(`color="${IDLE}"`, `fontcolor="${IDLE}"`);
  }
  return attributes;
}

/**
 * A compound state's box: its name, and when the run was in it (a parallel state), its figures
 * and color. Boxes inside a colored one take back the defaults and get ids of their own, or they
 * would inherit the outer box's (Graphviz hands a subgraph's attributes down to the ones inside it).
 */
function clusterAttributes(state: GraphState, overlay: DotOverlay | undefined, inColored: boolean): { text: string; colored: boolean } {
  const extra = overlay?.states.get(state.id);
  const plain = `label=${quote(state.key)}; style="rounded";`;
  if (!overlay || !extra) return { text: inColored ? `${plain} id=${quote(`state:${state.id}`)}; color="black"; fontcolor="black"; penwidth=1;` : plain, colored: false };
  const color = overlay.current.includes(state.id) ? CURRENT : VISITED;
  return { text: `label=${quote([state.key, ...extra].join('\n'))}; style="rounded"; id=${quote(`state:${state.id}`)}; color="${color}"; fontcolor="${color}"; penwidth=1.8;`, colored: true };
}

/** The node an arrow to (or from) `id` attaches to: itself, or for a compound state its initial leaf (or, leaving it, a final child). */
function leafOf(byId: ReadonlyMap<string, GraphState>, id: string, end: 'source' | 'target'): string {
  let state = byId.get(id);
  while (state && state.children.length > 0) {
    const final = end === 'source' ? state.children.find((child) => byId.get(child)?.type === 'final') : undefined;
    const next: string | undefined = final ?? state.initial ?? state.children[0];
    state = next === undefined ? undefined : byId.get(next);
  }
  return state?.id ?? id;
}

function caption(graph: MachineGraph): string {
  const internal = drawnEdges(graph).internal.map((event) => `${event.label} (${event.source === graph.root ? 'any state' : event.source}: no state change)`);
  return [`${graph.name} machine v${graph.version}`, ...internal].join('\n');
}

/** A DOT double-quoted string. */
function quote(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}
