// A replayed run laid over its machine's graph: which arrows it took and how often, and per state
// the visits, the time spent there, and the agent calls, tokens and cost of the effects it ran.
import type { ReplayedRun } from '../../store/projections/replay-steps.js';
import { regionsOf } from '../timeline.js';
import type { DotOverlay } from './dot.js';
import { drawnEdges, type DrawnEdge } from './drawn-edges.js';
import { effectRegions, regionPath } from './effect-regions.js';
import { lineage, stateByPath, type MachineGraph } from './machine-graph.js';
import { StateTally, type StateStats } from './state-tally.js';

export type { StateStats } from './state-tally.js';

/** The run's path and per-state figures. */
export interface RunOverlay {
  /** by state id, in the machine's document order; only visited states */
  states: StateStats[];
  /** drawn arrow id → times taken */
  edges: Map<string, number>;
  /** ids of the states the run ended in (or stands in) */
  current: string[];
}

/**
 * Lay `replayed` over `graph`. Inside a parallel state (a parallel stories run's lanes) each
 * region's state is a state of its own: entered when its region changes to it, timed on its own
 * (regions run at once, so their times add up to more than the wall time), charged with the
 * effects its region ran; the parallel state itself is entered once and timed by the wall clock.
 * A region that never left `idle` (a lane the run had no story for) leaves no trace, as in the
 * page's Lanes table.
 */
export function runOverlay(graph: MachineGraph, replayed: ReplayedRun): RunOverlay {
  const { edges } = drawnEdges(graph);
  const tally = new StateTally(graph);
  const taken = new Map<string, number>();
  const take = (edge: DrawnEdge): void => void taken.set(edge.id, (taken.get(edge.id) ?? 0) + 1);
  const owners = effectRegions(graph, replayed);
  /** One microstep, `from` → `to`, on `event` (null: eventless); `owner` is the region whose effect's result the event is. */
  const move = (from: string, to: string, event: string | null, owner: string | undefined, at: number): void => {
    const before = regionsOf(from);
    const after = regionsOf(to);
    if (before === null || after === null || before.name !== after.name) {
      const edge = findEdge(graph, edges, before?.name ?? from, after?.name ?? to, event);
      if (edge) take(edge);
      // a transition that changes no state (SET_MAX_ITERATIONS, …) enters nothing
      if (edge || before !== null || after !== null) tally.enter(to, at);
      return;
    }
    for (const [region, state] of after.regions) {
      const source = regionPath(after.name, region, before.regions.get(region) ?? '');
      const target = regionPath(after.name, region, state);
      // A region's transition to itself (`checking` on each check's result) shows only as the
      // region whose effect the event reports on staying where it was.
      const edge = source !== target
        ? findEdge(graph, edges, source, target, event) ?? (event === null ? undefined : findEdge(graph, edges, source, target, null))
        : region === owner && event !== null ? selfEdge(graph, edges, source, event) : undefined;
      if (edge) take(edge);
      if (edge || source !== target) tally.enterRegion(after.name, region, state, at);
    }
  };

  for (const step of replayed.steps) {
    if (step.record === 'run.started') {
      for (const name of [...step.via, step.to]) tally.enter(name, step.elapsedMs);
      continue;
    }
    if (step.effect && step.from !== null) tally.ranEffect(ranIn(step.from, owners.get(step)), step);
    if (step.record !== 'event' || step.from === null) continue;
    const path = [step.from, ...step.via, step.to];
    for (let index = 0; index + 1 < path.length; index += 1) {
      move(path[index] as string, path[index + 1] as string, index === 0 ? step.event : null, index === 0 ? owners.get(step) : undefined, step.elapsedMs);
    }
  }
  return {
    states: tally.finish(replayed.steps[replayed.steps.length - 1]?.elapsedMs ?? null),
    edges: taken,
    current: endedIn(replayed.outcome.state).map((name) => stateByPath(graph, name)?.id).filter((id): id is string => id !== undefined),
  };
}

/** The state an effect ran in: `from`, or inside a parallel state its region's state (the parallel state when no region is known). */
function ranIn(from: string, owner: string | undefined): string {
  const parallel = regionsOf(from);
  if (parallel === null) return from;
  const state = owner === undefined ? undefined : parallel.regions.get(owner);
  return owner === undefined || state === undefined ? parallel.name : regionPath(parallel.name, owner, state);
}

/** The states a run ended in: its state, or inside a parallel state each busy region's (the parallel state when all are idle). */
function endedIn(state: string): string[] {
  const parallel = regionsOf(state);
  if (parallel === null) return state.split(',');
  const busy = [...parallel.regions].filter(([, at]) => at !== 'idle').map(([region, at]) => regionPath(parallel.name, region, at));
  return busy.length > 0 ? busy : [parallel.name];
}

/** The overlay as the DOT renderer takes it: a few short lines per visited state. */
export function dotOverlay(overlay: RunOverlay): DotOverlay {
  const states = new Map(overlay.states.map((s) => {
    const lines = [`${s.visits}× · ${duration(s.timeMs)}`];
    if (s.agentCalls > 0) lines.push(`${s.agentCalls} call${s.agentCalls === 1 ? '' : 's'}${s.costUsd > 0 ? ` · $${s.costUsd.toFixed(2)}` : ''}`);
    return [s.id, lines];
  }));
  return { states, edges: overlay.edges, current: overlay.current };
}

/** `820ms`, `4.2s`, `12m05s`, `3h07m`. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(Math.floor(s % 60)).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** The arrow from the state named `path` back to itself on `event`, if it has one. */
function selfEdge(graph: MachineGraph, edges: readonly DrawnEdge[], path: string, event: string): DrawnEdge | undefined {
  const id = stateByPath(graph, path)?.id;
  return id === undefined ? undefined : edges.find((edge) => edge.source === id && edge.target === id && edge.event === event);
}

/** The arrow from `from` to `to` on `event` (null: eventless), allowing for ancestors on both ends. */
function findEdge(graph: MachineGraph, edges: readonly DrawnEdge[], from: string, to: string, event: string | null): DrawnEdge | undefined {
  const source = stateByPath(graph, from);
  const target = stateByPath(graph, to);
  if (!source || !target) return undefined;
  const sources = lineage(graph, source).map((state) => state.id);
  const targets = new Set(lineage(graph, target).map((state) => state.id));
  for (const id of sources) {
    const edge = edges.find((candidate) => candidate.source === id && candidate.event === event && targets.has(candidate.target));
    if (edge) return edge;
  }
  return undefined;
}
