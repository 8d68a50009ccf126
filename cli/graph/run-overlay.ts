// A replayed run laid over its machine's graph: which arrows it took and how often, and per state
// the visits, the time spent there, and the agent calls, tokens and cost of the effects it ran.
import { addCall, NO_USAGE, type UsageTotals } from '../../machines/usage-totals.js';
import type { ReplayedRun } from '../../store/projections/replay-steps.js';
import type { DotOverlay } from './dot.js';
import { drawnEdges, type DrawnEdge } from './drawn-edges.js';
import { lineage, stateByPath, type MachineGraph } from './machine-graph.js';

/** What the run did in one state. */
export interface StateStats {
  id: string;
  /** the path text replay shows (`working`) */
  name: string;
  visits: number;
  /** from entering the state until the next transition (transient states: 0) */
  timeMs: number;
  /** effects that ran from this state, and how long they said they took */
  effects: number;
  effectMs: number;
  /** the agent calls that ended here, counted as `yoke usage` and the budgets count them */
  usage: UsageTotals;
  agentCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

/** The run's path and per-state figures. */
export interface RunOverlay {
  /** by state id, in the machine's document order; only visited states */
  states: StateStats[];
  /** drawn arrow id → times taken */
  edges: Map<string, number>;
  /** ids of the states the run ended in (or stands in) */
  current: string[];
}

/** Lay `replayed` over `graph`. */
export function runOverlay(graph: MachineGraph, replayed: ReplayedRun): RunOverlay {
  const { edges } = drawnEdges(graph);
  const stats = new Map<string, StateStats>();
  const taken = new Map<string, number>();
  const statsOf = (name: string): StateStats | null => {
    const state = stateByPath(graph, name);
    if (!state) return null;
    let entry = stats.get(state.id);
    if (!entry) {
      entry = { id: state.id, name, visits: 0, timeMs: 0, effects: 0, effectMs: 0, usage: NO_USAGE, agentCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
      stats.set(state.id, entry);
    }
    return entry;
  };
  let current: { name: string; since: number } | null = null;
  const enter = (name: string, at: number): void => {
    if (current) {
      const left = statsOf(current.name);
      if (left) left.timeMs += at - current.since;
    }
    const entered = statsOf(name);
    if (entered) entered.visits += 1;
    current = { name, since: at };
  };

  for (const step of replayed.steps) {
    if (step.record === 'run.started') {
      for (const name of [...step.via, step.to]) enter(name, step.elapsedMs);
      continue;
    }
    if (step.effect && step.from !== null) {
      const ran = statsOf(step.from);
      if (ran) {
        ran.effects += 1;
        ran.effectMs += step.effect.durationMs ?? 0;
        if (step.effect.kind === 'agent.spawn') {
          ran.usage = addCall(ran.usage, { usage: step.usage, durationMs: step.effect.durationMs });
          Object.assign(ran, { agentCalls: ran.usage.calls, inputTokens: ran.usage.knownInputTokens, outputTokens: ran.usage.knownOutputTokens, costUsd: ran.usage.knownCostUsd });
        }
      }
    }
    if (step.record !== 'event' || step.from === null) continue;
    const path = [step.from, ...step.via, step.to];
    for (let index = 0; index + 1 < path.length; index += 1) {
      const edge = findEdge(graph, edges, path[index] as string, path[index + 1] as string, index === 0 ? step.event : null);
      if (!edge) continue; // a transition that changes no state (SET_MAX_ITERATIONS, …)
      taken.set(edge.id, (taken.get(edge.id) ?? 0) + 1);
      enter(path[index + 1] as string, step.elapsedMs);
    }
  }
  const last = replayed.steps[replayed.steps.length - 1];
  const open = current as { name: string; since: number } | null;
  if (open && last) {
    const stay = statsOf(open.name);
    if (stay) stay.timeMs += last.elapsedMs - open.since;
  }
  const order = new Map(graph.states.map((state, index) => [state.id, index]));
  return {
    states: [...stats.values()].sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0)),
    edges: taken,
    current: replayed.outcome.state.split(',').map((name) => stateByPath(graph, name)?.id).filter((id): id is string => id !== undefined),
  };
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
