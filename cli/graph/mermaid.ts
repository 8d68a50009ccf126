// A machine as a Mermaid `stateDiagram-v2` (paste into GitHub, GitLab or mermaid.live).
import { drawnEdges } from './drawn-edges.js';
import type { GraphState, MachineGraph } from './machine-graph.js';

/** Render `graph` as Mermaid; compound states become `state x { … }` blocks. */
export function renderMermaid(graph: MachineGraph): string {
  const byId = new Map(graph.states.map((state) => [state.id, state]));
  const name = (id: string): string => mermaidId(byId.get(id));
  const lines = ['stateDiagram-v2', `  %% ${graph.name} machine v${graph.version} (yoke inspect ${graph.name})`];
  const block = (state: GraphState, indent: string): void => {
    if (state.initial) lines.push(`${indent}[*] --> ${name(state.initial)}`);
    for (const childId of state.children) {
      const child = byId.get(childId);
      if (!child) continue;
      if (child.children.length > 0) {
        lines.push(`${indent}state ${mermaidId(child)} {`);
        block(child, `${indent}  `);
        lines.push(`${indent}}`);
      } else if (child.path.length > 1) {
        // Nested ids carry their parents' keys; show the state's own key.
        lines.push(`${indent}state "${mermaidText(child.key)}" as ${mermaidId(child)}`);
      }
      if (child.type === 'final') lines.push(`${indent}${mermaidId(child)} --> [*]`);
    }
  };
  const root = byId.get(graph.root);
  if (root) block(root, '  ');
  const { edges, internal } = drawnEdges(graph);
  for (const edge of edges) lines.push(`  ${name(edge.source)} --> ${name(edge.target)} : ${mermaidText(edge.label)}`);
  for (const event of internal) {
    const anchor = event.source === graph.root ? root?.initial ?? null : event.source;
    if (anchor === null) continue;
    const where = event.source === graph.root ? 'in every state' : 'here';
    lines.push(`  note left of ${name(anchor)} : ${mermaidText(`${where}, ${event.label} changes no state (actions only)`)}`);
  }
  return `${lines.join('\n')}\n`;
}

function mermaidId(state: GraphState | undefined): string {
  if (!state) return 'unknown';
  return state.path.length === 0 ? 'root' : state.path.map((key) => key.replace(/\W/g, '_')).join('__');
}

/** Mermaid ends a label at ';' or a newline and reads '#' as an entity: keep labels plain. */
function mermaidText(text: string): string {
  return text.replace(/[;#\n]/g, ' ');
}
