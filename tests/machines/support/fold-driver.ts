// A pure restartable driver for any lifecycle machine: the journal is the list of machine events;
// a restart folds a prefix of it again from scratch (what `yoke run` does after kill -9) and carries
// on answering requests from a world that is a function of the journal so far.
import { initialTransition, transition, type AnyMachineSnapshot, type AnyStateMachine } from 'xstate';
import { awaitsEvent, completionEvent, type MachineEvent } from '../../../machines/effect-events.js';
import type { EffectKind, EffectRequest, EffectResult } from '../../../machines/effects.js';
import type { WorkInput } from '../../../machines/work/work-context.js';
import { requestsOf } from './loop-driver.js';

/** Where a fold stands: the snapshot, the requests still owed a result, every request emitted. */
export interface FoldState {
  snapshot: AnyMachineSnapshot;
  /** awaited requests not answered yet, oldest first (the machines have at most one) */
  pending: EffectRequest[];
  requests: EffectRequest[];
  events: MachineEvent[];
}

/** Operator inputs answer no request. */
const isOperator = (event: MachineEvent): boolean => event.type === 'BUDGET_RAISED' || event.type === 'SET_MAX_ITERATIONS';

/** Feed one event (pure: returns a new state). */
export function feed(machine: AnyStateMachine, state: FoldState, event: MachineEvent): FoldState {
  const pending = isOperator(event) ? state.pending : state.pending.slice(1);
  const [snapshot, actions] = transition(machine, state.snapshot, event);
  const emitted = requestsOf(actions);
  return { snapshot, pending: [...pending, ...emitted.filter(awaitsEvent)], requests: [...state.requests, ...emitted], events: [...state.events, event] };
}

/** Fold `events` from scratch: a restart. */
export function refold(machine: AnyStateMachine, input: WorkInput, events: readonly MachineEvent[]): FoldState {
  const [snapshot, actions] = initialTransition(machine, input);
  const emitted = requestsOf(actions);
  let state: FoldState = { snapshot, pending: emitted.filter(awaitsEvent), requests: emitted, events: [] };
  for (const event of events) state = feed(machine, state, event);
  return state;
}

/**
 * The world: the result of a request given the journal so far, or a machine event to feed instead
 * (an interruption); when the machine is held by a budget, `operator` may raise a ceiling (null = stop).
 */
export interface World {
  answer(request: EffectRequest, journal: readonly MachineEvent[]): EffectResult<EffectKind> | MachineEvent;
  operator(snapshot: AnyMachineSnapshot, journal: readonly MachineEvent[]): MachineEvent | null;
}

/** How a drive stopped. */
export type Stop = 'ended' | 'held' | 'step-limit';

/** Answer requests from `world` until the machine ends, is held with no raise coming, or `maxSteps` events were fed. */
export function runOn(machine: AnyStateMachine, start: FoldState, world: World, maxSteps = 2_000): { state: FoldState; stop: Stop } {
  let state = start;
  for (let steps = 0; steps < maxSteps; steps += 1) {
    if (state.snapshot.status !== 'active') return { state, stop: 'ended' };
    const next = state.pending[0];
    if (next === undefined) {
      if (!state.snapshot.hasTag('paused')) throw new Error(`stuck in ${JSON.stringify(state.snapshot.value)} with nothing requested`);
      const raise = world.operator(state.snapshot, state.events);
      if (raise === null) return { state, stop: 'held' };
      state = feed(machine, state, raise);
      continue;
    }
    const answer = world.answer(next, state.events);
    const event = 'type' in answer ? answer : completionEvent(next, answer);
    if (event === null) throw new Error(`${next.kind} produced no event`);
    state = feed(machine, state, event);
  }
  return { state, stop: 'step-limit' };
}
