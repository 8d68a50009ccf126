// Which region of a parallel state ran the effect a replayed step reports on (DESIGN §10), so the
// page of `yoke replay --html` can count a lane's agent calls, tokens and cost in that lane's state.
// Pure: the replayed steps, the fold's effect requests and the machine's graph go in.
import { laneOfRequest } from '../../store/fold/request-lane.js';
import type { ReplayedRun, ReplayStep } from '../../store/projections/replay-steps.js';
import { regionsOf } from '../timeline.js';
import { laneRows } from './lane-rows.js';
import { stateByPath, type MachineGraph } from './machine-graph.js';

/** A region's state as the graph names it: `parallel.lane1.working`. */
export function regionPath(parallel: string, region: string, state: string): string {
  return `${parallel}.${region}.${state}`;
}

/**
 * By step, the region whose state ran the step's effect, for the steps inside a parallel state
 * that report on one and whose region can be told. A lane's requests name its story (`params.lane`), and so do the integration
 * lane's, for the candidate it works on: the stories each region works on come from `laneRows`.
 * A lane that has queued its candidate and the integration lane then both work on one story;
 * of those, the region whose state takes the step's event is the one that asked (a queued lane
 * waits and takes no result), and if that still leaves two, the one the step changed.
 */
export function effectRegions(graph: MachineGraph, replayed: Pick<ReplayedRun, 'steps' | 'fold'>): Map<ReplayStep, string> {
  const owners = new Map<ReplayStep, string>();
  const lanes = laneRows(replayed);
  if (lanes === null) return owners;
  const rowOf = new Map(lanes.rows.map((row) => [row.step, row]));
  let stories = new Map<string, string>();
  for (const step of replayed.steps) {
    const keyed = step.effect === null ? undefined : replayed.fold.effects.get(step.effect.key)?.request;
    const owner = keyed === undefined ? null : ownerOf(graph, step, stories, laneOfRequest(keyed));
    if (owner !== null) owners.set(step, owner);
    const row = rowOf.get(step);
    if (row) stories = new Map(lanes.regions.flatMap((region, index): Array<[string, string]> => {
      const story = row.cells[index]?.story;
      return story === null || story === undefined ? [] : [[region, story]];
    }));
  }
  return owners;
}

/**
 * The region of `step.from` that ran its effect, given what each region works on before the step.
 * Null outside a parallel state, and when no region can be told: an effect naming no story that no
 * region's state takes the result of (the page counts it in the parallel state itself).
 */
function ownerOf(graph: MachineGraph, step: ReplayStep, stories: ReadonlyMap<string, string>, story: string): string | null {
  const parallel = step.from === null ? null : regionsOf(step.from);
  if (parallel === null) return null;
  const busy = [...parallel.regions].filter(([, state]) => state !== 'idle');
  const candidates = story === '' ? busy : busy.filter(([region]) => stories.get(region) === story);
  const takers = candidates.filter(([region, state]) => takesEvent(graph, regionPath(parallel.name, region, state), step.event));
  const next = regionsOf(step.via[0] ?? step.to);
  const changed = takers.find(([region, state]) => next?.name === parallel.name && next.regions.get(region) !== state);
  return (changed ?? takers[0] ?? (story === '' ? undefined : candidates[0]))?.[0] ?? null;
}

/** True when the state named `path` has a transition on `event` of its own. */
function takesEvent(graph: MachineGraph, path: string, event: string): boolean {
  const state = stateByPath(graph, path);
  return state !== undefined && graph.transitions.some((transition) => transition.source === state.id && transition.event === event);
}
