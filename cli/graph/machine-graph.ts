// A lifecycle machine as plain data: its state nodes and every transition, read from `machine.root`.
// Mermaid, DOT, the Stately export and the HTML pages are all drawn from this one model.
import type { AnyStateMachine, AnyStateNode } from 'xstate';

/** One state node. */
export interface GraphState {
  /** XState's id (`loop.working`) */
  id: string;
  key: string;
  /** keys from the root (`['working']`); joined with '.', what `yoke replay` shows as the state */
  path: string[];
  parent: string | null;
  type: 'atomic' | 'compound' | 'parallel' | 'final' | 'history';
  /** id of the initial child (compound states) */
  initial: string | null;
  children: string[];
  /** entry action names (`request`, `assign`, …) */
  entry: string[];
  description: string | null;
}

/** One transition of one state node, in document order. */
export interface GraphTransition {
  /** position in `MachineGraph.transitions` */
  index: number;
  source: string;
  /** target ids; empty for a targetless transition (it only runs actions) */
  targets: string[];
  /** the event type; null for an eventless (`always`) transition */
  event: string | null;
  /** guard name (`boundaryBroken`), `inline` for an anonymous guard, null when unguarded */
  guard: string | null;
  reenter: boolean;
  actions: string[];
}

/** A machine's structure. */
export interface MachineGraph {
  name: string;
  version: number;
  id: string;
  root: string;
  states: GraphState[];
  transitions: GraphTransition[];
}

/** Read the structure of `machine` (root first, then children depth-first in document order). */
export function machineGraph(name: string, version: number, machine: AnyStateMachine): MachineGraph {
  const states: GraphState[] = [];
  const transitions: GraphTransition[] = [];
  const visit = (node: AnyStateNode): void => {
    const children = Object.values(node.states) as AnyStateNode[];
    states.push({
      id: node.id,
      key: node.key,
      path: [...node.path],
      parent: node.parent?.id ?? null,
      type: node.type,
      initial: node.type === 'compound' ? node.initial.target[0]?.id ?? null : null,
      children: children.map((child) => child.id),
      entry: node.entry.map(actionName),
      description: node.description ?? null,
    });
    for (const [event, definitions] of node.transitions) {
      for (const definition of definitions) transitions.push(edge(transitions.length, node, event, definition));
    }
    for (const definition of node.always ?? []) transitions.push(edge(transitions.length, node, null, definition));
    for (const child of children) visit(child);
  };
  visit(machine.root);
  return { name, version, id: machine.id, root: machine.root.id, states, transitions };
}

/** The state a replay names by its path text (`working`, `chunk.judging`), if any. */
export function stateByPath(graph: MachineGraph, text: string): GraphState | undefined {
  return graph.states.find((state) => state.path.length > 0 && state.path.join('.') === text);
}

/** `state` and its ancestors, innermost first. */
export function lineage(graph: MachineGraph, state: GraphState): GraphState[] {
  const chain: GraphState[] = [];
  for (let node: GraphState | undefined = state; node; node = node.parent === null ? undefined : graph.states.find((s) => s.id === node?.parent)) {
    chain.push(node);
  }
  return chain;
}

type TransitionDefinition = AnyStateNode['always'] extends Array<infer T> | undefined ? T : never;

function edge(index: number, node: AnyStateNode, event: string | null, definition: TransitionDefinition): GraphTransition {
  return {
    index,
    source: node.id,
    targets: (definition.target ?? []).map((target: AnyStateNode) => target.id),
    event,
    guard: guardName(definition.guard),
    reenter: definition.reenter,
    actions: definition.actions.map(actionName),
  };
}

function guardName(guard: unknown): string | null {
  if (guard === undefined || guard === null) return null;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && typeof (guard as { type?: unknown }).type === 'string') return (guard as { type: string }).type;
  return 'inline';
}

function actionName(action: unknown): string {
  if (typeof action === 'string') return action;
  const typed = (action as { type?: unknown } | null)?.type;
  if (typeof typed === 'string') return typed.replace(/^xstate\./, '');
  if (typeof action === 'function' && action.name) return action.name;
  return 'action';
}
