// Per-state visits, time and effects of a replayed run as `runOverlay` walks its steps; inside a
// parallel state, region by region (DESIGN §10: a parallel stories run's lanes).
import { addCall, NO_USAGE, type UsageTotals } from '../../machines/usage-totals.js';
import type { ReplayStep } from '../../store/projections/replay-steps.js';
import { regionsOf } from '../timeline.js';
import { regionPath } from './effect-regions.js';
import { stateByPath, type MachineGraph } from './machine-graph.js';

/** What the run did in one state. */
export interface StateStats {
  id: string;
  /** the path text replay shows (`working`; a region's state: `parallel.lane1.working`) */
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

/** A state the run is in, since when (ms since the run started). */
interface Stay {
  name: string;
  since: number;
}

/**
 * The states a run is in and what it did in each. A parallel state is entered once and timed by
 * the wall clock; each of its regions' states is entered and timed on its own, so the times of
 * regions that run at once add up to more than the wall time.
 */
export class StateTally {
  private readonly stats = new Map<string, StateStats>();
  private current: Stay | null = null;
  private regions = new Map<string, Stay>();
  /** state id → its region, for the states inside a parallel state */
  private readonly regionOf = new Map<string, string>();
  private readonly busy = new Set<string>();

  constructor(private readonly graph: MachineGraph) {}

  /** The figures of the state named `name`, started on first use; null when the graph has no such state. */
  statsOf(name: string): StateStats | null {
    const state = stateByPath(this.graph, name);
    if (!state) return null;
    let entry = this.stats.get(state.id);
    if (!entry) {
      entry = { id: state.id, name, visits: 0, timeMs: 0, effects: 0, effectMs: 0, usage: NO_USAGE, agentCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
      this.stats.set(state.id, entry);
    }
    return entry;
  }

  /** Enter the state `text` at `at`, leaving the one (and the regions) the run was in; a parallel state's text enters its regions too. */
  enter(text: string, at: number): void {
    for (const stay of this.stays()) this.leave(stay, at);
    this.regions = new Map();
    const parallel = regionsOf(text);
    this.current = this.visit(parallel?.name ?? text, at);
    if (parallel) for (const [region, state] of parallel.regions) this.enterRegion(parallel.name, region, state, at);
  }

  /** `region` of the parallel state `parallel` enters its `state` at `at` (again, when it is the one it is in). */
  enterRegion(parallel: string, region: string, state: string, at: number): void {
    const was = this.regions.get(region);
    if (was) this.leave(was, at);
    const name = regionPath(parallel, region, state);
    const id = stateByPath(this.graph, name)?.id;
    if (id !== undefined) this.regionOf.set(id, region);
    if (state !== 'idle') this.busy.add(region);
    this.regions.set(region, this.visit(name, at));
  }

  /** Count the effect `step` reports on in the state named `name`. */
  ranEffect(name: string, step: ReplayStep): void {
    const ran = this.statsOf(name);
    if (!ran || !step.effect) return;
    ran.effects += 1;
    ran.effectMs += step.effect.durationMs ?? 0;
    if (step.effect.kind !== 'agent.spawn') return;
    ran.usage = addCall(ran.usage, { usage: step.usage, durationMs: step.effect.durationMs });
    Object.assign(ran, { agentCalls: ran.usage.calls, inputTokens: ran.usage.knownInputTokens, outputTokens: ran.usage.knownOutputTokens, costUsd: ran.usage.knownCostUsd });
  }

  /**
   * The figures once the run stands still at `at`, in the machine's document order. A region that
   * never left `idle` (a lane the run had no story for) is left out, as in the page's Lanes table.
   */
  finish(at: number | null): StateStats[] {
    if (at !== null) for (const stay of this.stays()) this.leave(stay, at);
    this.current = null;
    this.regions = new Map();
    const order = new Map(this.graph.states.map((state, index) => [state.id, index]));
    return [...this.stats.values()]
      .filter((entry) => {
        const region = this.regionOf.get(entry.id);
        return region === undefined || this.busy.has(region);
      })
      .sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  }

  private stays(): Stay[] {
    return [...(this.current ? [this.current] : []), ...this.regions.values()];
  }

  private leave(stay: Stay, at: number): void {
    const left = this.statsOf(stay.name);
    if (left) left.timeMs += at - stay.since;
  }

  private visit(name: string, at: number): Stay {
    const entered = this.statsOf(name);
    if (entered) entered.visits += 1;
    return { name, since: at };
  }
}
