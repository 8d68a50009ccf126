// Graph exploration of a lifecycle machine (brute, saga) from sample events, for model-based tests:
// the shortest path to every vertex of the bounded graph, extended by every event enabled there.
import type { AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type { MachineEvent } from '../../../machines/effect-events.js';
import { checkPassed, gatesDone } from '../../../machines/work/guard-report.js';
import { notesSayDone, type WorkContext, type WorkInput } from '../../../machines/work/work-context.js';

/** A path as the events that drive it (the `xstate.init` pseudo-step dropped). */
export type EventPath = MachineEvent[];

/** Named sample events; `when` limits where the graph tries a sample (default: wherever the machine accepts it). */
export interface Sample {
  event: MachineEvent;
  /** explore this sample only from snapshots for which this holds (the state value as text, e.g. `{"chunk":"readingVerdict"}`) */
  when?: (state: string) => boolean;
}

/** How to explore one config of a machine. */
export interface GraphModel {
  input: WorkInput;
  samples: Record<string, Sample>;
  /** graph identity of a snapshot: keep what guards and requests depend on, and keep it bounded */
  serialize: (snapshot: AnyMachineSnapshot) => string;
  /** explore `event` from `snapshot` only when this holds (default: always); for a schedule of interleavings, e.g. of parallel lanes */
  allow?: (snapshot: AnyMachineSnapshot, event: MachineEvent) => boolean;
}

export interface TransitionPaths {
  vertices: number;
  paths: EventPath[];
  /** how each vertex's state ended: a final output reason, or 'active' */
  ends: Set<string>;
}

function eventsOf(steps: ReadonlyArray<{ event: { type: string } }>): EventPath {
  return steps.map((step) => step.event).filter((event): event is MachineEvent => event.type !== 'xstate.init');
}

/**
 * The events explored from a snapshot: every sample the machine accepts there and whose `when`
 * allows it; operator raises only in a hold (accepted everywhere, elsewhere they would only
 * multiply vertices; the transition paths still try them everywhere, as one-step extensions).
 */
function explored(snapshot: AnyMachineSnapshot, samples: readonly Sample[], allow: GraphModel['allow']): MachineEvent[] {
  const state = JSON.stringify(snapshot.value);
  return samples
    .filter((s) => (s.when ? s.when(state) : true) && snapshot.can(s.event) && (s.event.type !== 'BUDGET_RAISED' || snapshot.hasTag('paused')) && (allow?.(snapshot, s.event) ?? true))
    .map((s) => s.event);
}

/** The shortest path to every vertex, and that path extended by every sample the machine accepts at its end. */
export function transitionPaths(machine: AnyStateMachine, model: GraphModel, limit = 40_000): TransitionPaths {
  const samples = Object.values(model.samples);
  const shortest = getShortestPaths(machine, {
    input: model.input,
    events: (snapshot: AnyMachineSnapshot) => explored(snapshot, samples, model.allow),
    stopWhen: (snapshot: AnyMachineSnapshot) => snapshot.status !== 'active',
    serializeState: (snapshot: AnyMachineSnapshot) => model.serialize(snapshot),
    limit,
  });
  const paths: EventPath[] = [];
  for (const path of shortest) {
    const head = eventsOf(path.steps);
    paths.push(head);
    if (path.state.status !== 'active') continue;
    for (const { event } of samples) if (path.state.can(event)) paths.push([...head, event]);
  }
  const ends = new Set(shortest.map((path) => (path.state.status === 'done' ? (path.state.output as { reason: string }).reason : 'active')));
  return { vertices: shortest.length, paths, ends };
}

/** `describe(path)` names each event by its sample name. */
export function pathNamer(samples: Record<string, Sample>): (path: readonly MachineEvent[]) => string {
  const names = new Map(Object.entries(samples).map(([name, sample]) => [sample.event, name]));
  return (path) => path.map((event) => names.get(event) ?? event.type).join(' → ');
}

/**
 * Graph identity of a work-machine snapshot. Context is part of state identity, and the raw context
 * holds values that never change what the machine does next (agentCalls, changed paths, excerpts)
 * or grow without bound (`interruptions`, and `attempts` unless an attempts ceiling caps them). So
 * keep what the guards and requests depend on: the state, the iteration and cap, DONE / boundary /
 * checks, the judge's trigger, verdict and FAIL streak (and an overruled judge), the saga's chunk and scoper files, "was a
 * call ever interrupted", and with budgets the ceilings, known spending and the clock.
 */
export function serializeWork(snapshot: AnyMachineSnapshot): string {
  const c = snapshot.context as WorkContext;
  return JSON.stringify({
    state: snapshot.value as unknown,
    iteration: c.iteration,
    max: c.maxIterations,
    done: notesSayDone(c.notesFirstLine),
    broken: c.violations.length > 0,
    checks: c.checks.length,
    passing: c.checks.filter(gatesDone).every(checkPassed),
    interrupted: c.interruptions > 0,
    judge: [c.judgeTrigger, c.verdict, c.consecutiveFailures],
    // DESIGN §16: a judge found to have changed protected files, until its FAIL is written
    ...(c.judgeDrift ? { overruled: true } : {}),
    saga: [c.chunk, c.sagaDone, c.subPlanBlank],
    ...(Object.keys(c.budgets).length === 0 ? {} : {
      budgets: c.budgets, tokens: c.spent.tokens, cost: c.spent.costUsd, clock: [c.runStartedAt, c.now, c.clockFresh],
      ...(c.budgets.attempts === undefined ? {} : { attempts: c.spent.attempts }),
    }),
  });
}
