// A machine as an XState config of plain JSON, for Stately Studio's "Import from code".
//
// The real machine's guards, actions and context are functions; here they become their names
// (an anonymous guard is named `inline`), which is what the Studio shows and edits.
import type { GraphState, GraphTransition, MachineGraph } from './machine-graph.js';

/** JSON config object of a state node (and, for the root, the whole machine). */
export type StatelyNode = Record<string, unknown>;

/** The machine config: `{ id, initial, states, on, … }` with names in place of functions. */
export function statelyConfig(graph: MachineGraph): StatelyNode {
  const byId = new Map(graph.states.map((state) => [state.id, state]));
  const node = (state: GraphState): StatelyNode => {
    const config: StatelyNode = {};
    if (state.path.length === 0) config.id = graph.id;
    if (state.description) config.description = state.description;
    if (state.type === 'final' || state.type === 'parallel' || state.type === 'history') config.type = state.type;
    if (state.initial) config.initial = byId.get(state.initial)?.key;
    if (state.entry.length > 0) config.entry = state.entry;
    const mine = graph.transitions.filter((transition) => transition.source === state.id);
    const on: Record<string, StatelyNode[]> = {};
    for (const transition of mine.filter((t) => t.event !== null)) (on[transition.event as string] ??= []).push(transitionConfig(transition, state, byId));
    if (Object.keys(on).length > 0) config.on = Object.fromEntries(Object.entries(on).map(([event, list]) => [event, list.length === 1 ? list[0] : list]));
    const always = mine.filter((t) => t.event === null).map((t) => transitionConfig(t, state, byId));
    if (always.length > 0) config.always = always;
    const children = state.children.map((id) => byId.get(id)).filter((child): child is GraphState => child !== undefined);
    if (children.length > 0) config.states = Object.fromEntries(children.map((child) => [child.key, node(child)]));
    return config;
  };
  const root = byId.get(graph.root);
  return root ? node(root) : { id: graph.id };
}

/** The Studio's importer expects a `createMachine({...})` call; its argument is plain JSON. */
export function statelyImportCode(graph: MachineGraph): string {
  return `createMachine(${JSON.stringify(statelyConfig(graph), null, 2)});\n`;
}

function transitionConfig(transition: GraphTransition, source: GraphState, byId: ReadonlyMap<string, GraphState>): StatelyNode {
  const config: StatelyNode = {};
  const targets = transition.targets.map((id) => targetRef(source, byId.get(id), id));
  if (targets.length === 1) config.target = targets[0];
  else if (targets.length > 1) config.target = targets;
  if (transition.guard) config.guard = transition.guard;
  if (transition.reenter) config.reenter = true;
  if (transition.actions.length > 0) config.actions = transition.actions;
  return config;
}

/** A sibling by its key; anything else by `#id`. */
function targetRef(source: GraphState, target: GraphState | undefined, id: string): string {
  if (target && target.parent === source.parent && source.parent !== null) return target.key;
  return `#${id}`;
}
