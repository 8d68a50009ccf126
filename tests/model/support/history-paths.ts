// The second family of paths: histories, every simple path of a model's bounded graph
// (`getSimplePaths`), i.e. every distinct combination of sample outcomes across the iterations that
// the graph tells apart. Outside inputs and interruptions are left out (the transition paths take
// those); a simple path never revisits a vertex, so the family is finite.
import type { AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { getSimplePaths } from 'xstate/graph';
import type { MachineEvent } from '../../../machines/effect-events.js';
import type { GraphModel } from '../../machines/support/work-graph.js';
import { EXTERNAL_EVENTS } from './world-plan.js';

/** Every simple path of `model`'s graph, as the events that drive it. */
export function historyPaths(machine: AnyStateMachine, model: GraphModel, limit = 20_000): MachineEvent[][] {
  const samples = Object.values(model.samples).filter((s) => !EXTERNAL_EVENTS.has(s.event.type) && s.event.type !== 'AGENT_INTERRUPTED');
  const simple = getSimplePaths(machine, {
    input: model.input,
    events: (snapshot: AnyMachineSnapshot) => {
      const state = JSON.stringify(snapshot.value);
      return samples.filter((s) => (s.when ? s.when(state) : true) && snapshot.can(s.event)).map((s) => s.event);
    },
    stopWhen: (snapshot: AnyMachineSnapshot) => snapshot.status !== 'active',
    serializeState: (snapshot: AnyMachineSnapshot) => model.serialize(snapshot),
    limit,
  });
  return simple.map((path) => path.steps.map((step) => step.event as MachineEvent).filter((event) => (event.type as string) !== 'xstate.init'));
}
