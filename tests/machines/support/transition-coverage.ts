// Which state nodes and transitions of the loop machine a set of event paths takes.
//
// A macrostep's snapshot never shows the eventless hops (routingChecks, deciding, advancing), so
// each event is expanded into its microsteps (`getMicrosteps`) and the transition taken in each is
// identified: the first candidate, from the active atomic node outwards, whose guard passes.
import { getMicrosteps, getStateNodes, initialTransition, transition, type AnyStateNode, type AnyTransitionDefinition } from 'xstate';
import type { MachineEvent } from '../../../machines/effect-events.js';
import { loopMachine, type LoopInput } from '../../../machines/loop.js';
import type { LoopSnapshot } from './loop-driver.js';
import { replayAll } from './replay-paths.js';

/** The loop machine's state nodes, root included. */
export function allStateNodes(node: AnyStateNode = loopMachine.root): AnyStateNode[] {
  return [node, ...Object.values(node.states).flatMap((child) => allStateNodes(child))];
}

/** Transition id per (state node, event type); `always` stands for the eventless transitions. */
const typeKey = (node: AnyStateNode, eventType: string): string => `${node.id} ${eventType}`;
/** Transition id per candidate: guarded alternatives for the same event counted apart. */
const candidateKey = (node: AnyStateNode, eventType: string, index: number, t: AnyTransitionDefinition): string =>
  `${typeKey(node, eventType)} #${index}${typeof t.guard === 'string' ? ` [${t.guard}]` : t.guard ? ' [inline guard]' : ''} → ${t.target?.map((n) => n.id).join(',') ?? '(self)'}`;

/** Every transition of the loop machine, per (node, event type) and per guarded alternative. */
export function allTransitions(): { types: string[]; candidates: string[] } {
  const types: string[] = [];
  const candidates: string[] = [];
  for (const node of allStateNodes()) {
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

const NAMED_GUARDS = loopMachine.implementations.guards as Record<string, (args: unknown, params: unknown) => boolean>;

function guardPasses(t: AnyTransitionDefinition, snapshot: LoopSnapshot, event: MachineEvent): boolean {
  const guard: unknown = t.guard;
  if (guard === undefined) return true;
  const args = { context: snapshot.context, event };
  if (typeof guard === 'function') return (guard as (a: unknown, p: unknown) => boolean)(args, undefined);
  const named = NAMED_GUARDS[typeof guard === 'string' ? guard : (guard as { type: string }).type];
  if (!named) throw new Error(`unknown guard ${JSON.stringify(guard)}`);
  return named(args, typeof guard === 'object' && guard !== null ? (guard as { params?: unknown }).params : undefined);
}

/** The active atomic node first, then its ancestors: the order XState looks for a transition. */
function lookupOrder(snapshot: LoopSnapshot): AnyStateNode[] {
  const atomic = getStateNodes(loopMachine.root, snapshot.value).filter((n) => n.type === 'atomic' || n.type === 'final');
  const order: AnyStateNode[] = [];
  for (let node: AnyStateNode | undefined = atomic[0]; node; node = node.parent) order.push(node);
  return order;
}

/** What the replayed paths reached: state node ids and transition keys. */
export interface Coverage {
  nodes: Set<string>;
  types: Set<string>;
  candidates: Set<string>;
}

/**
 * Record which nodes and transitions one event takes, microstep by microstep (eventless hops
 * through routingChecks / deciding / advancing never show in a macrostep's snapshot). The taken
 * candidate is the first whose guard passes, and its target must be where the microstep landed.
 */
function recordStep(coverage: Coverage, before: LoopSnapshot, event: MachineEvent): void {
  let previous = before;
  for (const [i, [micro]] of getMicrosteps(loopMachine, before, event).entries()) {
    const eventType = i === 0 ? event.type : 'always';
    let taken: { node: AnyStateNode; index: number; t: AnyTransitionDefinition } | undefined;
    for (const node of lookupOrder(previous)) {
      const list = i === 0 ? (node.transitions.get(event.type) ?? []) : (node.always ?? []);
      const index = list.findIndex((t) => guardPasses(t, previous, event));
      const t = list[index];
      if (t) {
        taken = { node, index, t };
        break;
      }
    }
    if (!taken) throw new Error(`microstep ${i} of ${event.type} from ${JSON.stringify(previous.value)} matches no transition`);
    const landed = getStateNodes(loopMachine.root, micro.value).map((n) => n.id);
    const target = taken.t.target?.map((n) => n.id) ?? [];
    if (!target.every((id) => landed.includes(id))) throw new Error(`guard evaluation picked ${candidateKey(taken.node, eventType, taken.index, taken.t)} but the machine went to ${JSON.stringify(micro.value)}`);
    coverage.types.add(typeKey(taken.node, eventType));
    coverage.candidates.add(candidateKey(taken.node, eventType, taken.index, taken.t));
    for (const id of landed) coverage.nodes.add(id);
    previous = micro;
  }
}

/** Replay `paths` from `input` and record every state node and transition they take. */
export function coverageOf(input: LoopInput, paths: ReadonlyArray<readonly MachineEvent[]>): Coverage {
  const coverage: Coverage = { nodes: new Set(), types: new Set(), candidates: new Set() };
  const [initial] = initialTransition(loopMachine, input);
  for (const n of getStateNodes(loopMachine.root, initial.value)) coverage.nodes.add(n.id);
  replayAll(paths, initial, (snapshot, path) => {
    const event = path.at(-1) as MachineEvent;
    recordStep(coverage, snapshot, event);
    return transition(loopMachine, snapshot, event)[0];
  });
  return coverage;
}

/** The keys of `all` that `seen` lacks. */
export const missing = (all: readonly string[], seen: Set<string>): string[] => all.filter((key) => !seen.has(key));
