// Which state nodes and transitions of a lifecycle machine (loop by default; brute, saga) a set of
// event paths takes.
//
// A macrostep's snapshot never shows the eventless hops (routingChecks, deciding, advancing), so
// each event is expanded into its microsteps (`getMicrosteps`) and the transition taken in each is
// identified: the first candidate, from the active atomic node outwards, whose guard passes.
import {
  getMicrosteps, getStateNodes, initialTransition, transition,
  type AnyMachineSnapshot, type AnyStateMachine, type AnyStateNode, type AnyTransitionDefinition, type StateValue,
} from 'xstate';
import type { MachineEvent } from '../../../machines/effect-events.js';
import { loopMachine, type LoopInput } from '../../../machines/lifecycles/loop.js';
import { replayAll } from './replay-paths.js';

/** A machine's state nodes, root included (the loop machine's by default). */
export function allStateNodes(node: AnyStateNode = loopMachine.root): AnyStateNode[] {
  return [node, ...Object.values(node.states).flatMap((child) => allStateNodes(child))];
}

/** Transition id per (state node, event type); `always` stands for the eventless transitions. */
const typeKey = (node: AnyStateNode, eventType: string): string => `${node.id} ${eventType}`;
/** Transition id per candidate: guarded alternatives for the same event counted apart. */
const candidateKey = (node: AnyStateNode, eventType: string, index: number, t: AnyTransitionDefinition): string =>
  `${typeKey(node, eventType)} #${index}${guardLabel(t.guard)} → ${t.target?.map((n) => n.id).join(',') ?? '(self)'}`;

/** ` [name]` for a named guard (with or without params), ` [inline guard]` for a function, '' for none. */
function guardLabel(guard: unknown): string {
  if (guard === undefined) return '';
  if (typeof guard === 'string') return ` [${guard}]`;
  if (typeof guard === 'object' && guard !== null && typeof (guard as { type?: unknown }).type === 'string') return ` [${(guard as { type: string }).type}]`;
  return ' [inline guard]';
}

/** Every transition of a machine, per (node, event type) and per guarded alternative. */
export function allTransitions(machine: AnyStateMachine = loopMachine): { types: string[]; candidates: string[] } {
  const types: string[] = [];
  const candidates: string[] = [];
  for (const node of allStateNodes(machine.root)) {
    for (const [eventType, list] of node.transitions) {
      types.push(typeKey(node, eventType));
      list.forEach((t, i) => candidates.push(candidateKey(node, eventType, i, t)));
    }
    if (node.always && node.always.length > 0) {
      types.push(typeKey(node, 'always'));
      node.always.forEach((t, i) => candidates.push(candidateKey(node, 'always', i, t)));
    }
  }
  return { types, candidates };
}

type NamedGuards = Record<string, (args: unknown, params: unknown) => boolean>;

function guardPasses(t: AnyTransitionDefinition, snapshot: AnyMachineSnapshot, event: MachineEvent, guards: NamedGuards): boolean {
  const guard: unknown = t.guard;
  if (guard === undefined) return true;
  const args = { context: snapshot.context as unknown, event };
  if (typeof guard === 'function') return (guard as (a: unknown, p: unknown) => boolean)(args, undefined);
  const named = guards[typeof guard === 'string' ? guard : (guard as { type: string }).type];
  if (!named) throw new Error(`unknown guard ${JSON.stringify(guard)}`);
  return named(args, typeof guard === 'object' && guard !== null ? (guard as { params?: unknown }).params : undefined);
}

/**
 * For each active atomic node (one per region of a parallel state, in document order), that node
 * and then its ancestors: the order XState looks for a transition, region by region.
 */
function lookupOrders(machine: AnyStateMachine, snapshot: AnyMachineSnapshot): AnyStateNode[][] {
  const atomic = getStateNodes(machine.root, snapshot.value as StateValue).filter((n) => n.type === 'atomic' || n.type === 'final');
  return atomic.map((leaf) => {
    const order: AnyStateNode[] = [];
    for (let node: AnyStateNode | undefined = leaf; node; node = node.parent) order.push(node);
    return order;
  });
}

/** What the replayed paths reached: state node ids and transition keys. */
export interface Coverage {
  nodes: Set<string>;
  types: Set<string>;
  candidates: Set<string>;
}

const DONE_PREFIX = 'xstate.done.state.';

/**
 * The transitions a microstep after the first may take at `node`: its eventless ones, then (when a
 * final child of a compound state was just entered) that state's `onDone`, which XState runs on
 * the internal done event it raises.
 */
function followUps(node: AnyStateNode, active: readonly AnyStateNode[]): Array<[string, AnyTransitionDefinition[]]> {
  const done = [...node.transitions].filter(([type]) => type.startsWith(DONE_PREFIX) && active.some((n) => n.type === 'final' && n.parent?.id === type.slice(DONE_PREFIX.length)));
  return [['always', node.always ?? []], ...done];
}

/**
 * Record which nodes and transitions one event takes, microstep by microstep (eventless hops
 * through routingChecks / deciding / advancing never show in a macrostep's snapshot). In each
 * region (each active atomic node: a parallel state has several) the taken candidate is the first,
 * from the node outwards, whose guard passes; every taken candidate's target must be where the
 * microstep landed.
 */
function recordStep(machine: AnyStateMachine, coverage: Coverage, before: AnyMachineSnapshot, event: MachineEvent): void {
  const guards = machine.implementations.guards as NamedGuards;
  let previous = before;
  for (const [i, [micro]] of getMicrosteps(machine, before, event).entries()) {
    const taken = new Map<string, { node: AnyStateNode; eventType: string; t: AnyTransitionDefinition }>();
    const active = getStateNodes(machine.root, previous.value as StateValue);
    for (const order of lookupOrders(machine, previous)) {
      let found = false;
      for (const node of order) {
        const lists: Array<[string, AnyTransitionDefinition[]]> = i === 0 ? [[event.type, node.transitions.get(event.type) ?? []]] : followUps(node, active);
        for (const [eventType, list] of lists) {
          const index = list.findIndex((t) => guardPasses(t, previous, event, guards));
          const t = list[index];
          if (t) {
            taken.set(candidateKey(node, eventType, index, t), { node, eventType, t });
            found = true;
            break;
          }
        }
        if (found) break;
      }
    }
    if (taken.size === 0) throw new Error(`microstep ${i} of ${event.type} from ${JSON.stringify(previous.value)} matches no transition`);
    const landed = getStateNodes(machine.root, micro.value as StateValue).map((n) => n.id);
    for (const [key, { node, eventType, t }] of taken) {
      const target = t.target?.map((n) => n.id) ?? [];
      if (!target.every((id) => landed.includes(id))) throw new Error(`guard evaluation picked ${key} but the machine went to ${JSON.stringify(micro.value)}`);
      coverage.types.add(typeKey(node, eventType));
      coverage.candidates.add(key);
    }
    for (const id of landed) coverage.nodes.add(id);
    previous = micro;
  }
}

/** Replay `paths` from `input` through `machine` and record every state node and transition they take. */
export function coverageOf(input: LoopInput, paths: ReadonlyArray<readonly MachineEvent[]>, machine: AnyStateMachine = loopMachine): Coverage {
  const coverage: Coverage = { nodes: new Set(), types: new Set(), candidates: new Set() };
  const [initial] = initialTransition(machine, input);
  for (const n of getStateNodes(machine.root, initial.value as StateValue)) coverage.nodes.add(n.id);
  replayAll<MachineEvent, AnyMachineSnapshot>(paths, initial, (snapshot, path) => {
    const event = path.at(-1) as MachineEvent;
    recordStep(machine, coverage, snapshot, event);
    return transition(machine, snapshot, event)[0];
  });
  return coverage;
}

/** The keys of `all` that `seen` lacks. */
export const missing = (all: readonly string[], seen: Set<string>): string[] => all.filter((key) => !seen.has(key));
