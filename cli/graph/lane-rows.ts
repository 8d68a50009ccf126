// A parallel stories run's lanes side by side (DESIGN §10), for the page of `yoke replay --html`:
// one column per lane region that was ever busy plus the integration lane, one row per step that
// changed a region. Pure: the replayed steps and the fold's effect requests go in, rows come out.
import type { EffectKind } from '../../machines/effects.js';
import type { KeyedRequest } from '../../store/fold/run-fold.js';
import { laneOfRequest } from '../../store/fold/request-lane.js';
import type { ReplayedRun, ReplayStep } from '../../store/projections/replay-steps.js';
import { regionsOf } from '../timeline.js';

/** One region at one step: its state, the story it works on (when known), and whether the step changed it. */
export interface LaneCell {
  state: string;
  story: string | null;
  changed: boolean;
}

/** One step that changed at least one region; `cells` follow the table's `regions`. */
export interface LaneRow {
  step: ReplayStep;
  cells: LaneCell[];
}

/** The lanes of a run: region names (`lane1`, `lane2`, …, `integration`) and the rows. */
export interface LaneRows {
  regions: string[];
  rows: LaneRow[];
}

/** The integration region's name; every other region of the coordinator is a lane. */
const INTEGRATION = 'integration';

/**
 * Where a region takes up a story: the state it enters and the request it makes there, whose
 * `lane` parameter names the story (a lane's worktree, the integration lane's rebase). The
 * machine's context knows the story too, but replay keeps no context per step.
 */
function opening(region: string): { state: string; kind: EffectKind } {
  return region === INTEGRATION ? { state: 'rebasing', kind: 'candidate.rebase' } : { state: 'creating', kind: 'worktree.create' };
}

/**
 * The run's lanes, or null when it never was in a parallel state (every run but a parallel
 * stories one). A lane region that was never busy has no column; the integration lane always has one.
 */
export function laneRows(replayed: Pick<ReplayedRun, 'steps' | 'fold'>): LaneRows | null {
  const seen: string[] = [];
  const busy = new Set<string>([INTEGRATION]);
  const stories = new Map<string, string>();
  const rows: Array<{ step: ReplayStep; cells: Map<string, LaneCell> }> = [];
  for (const step of replayed.steps) {
    const before = regionsBefore(step);
    const after = regionsAfter(step);
    if (before === null && after === null) continue;
    const now = after ?? new Map([...(before ?? [])].map(([region]) => [region, 'idle']));
    const changed = [...now].filter(([region, state]) => (before?.get(region) ?? 'idle') !== state).map(([region]) => region);
    if (changed.length === 0) continue;
    assignStories(step, changed, now, stories, (key) => replayed.fold.effects.get(key)?.request);
    const cells = new Map<string, LaneCell>();
    for (const [region, state] of now) {
      if (!seen.includes(region)) seen.push(region);
      if (state !== 'idle') busy.add(region);
      cells.set(region, { state, story: state === 'idle' ? null : stories.get(region) ?? null, changed: changed.includes(region) });
      if (state === 'idle') stories.delete(region);
    }
    rows.push({ step, cells });
  }
  if (rows.length === 0) return null;
  const regions = seen.filter((region) => busy.has(region));
  return { regions, rows: rows.map(({ step, cells }) => ({ step, cells: regions.map((region) => cells.get(region) ?? { state: 'idle', story: null, changed: false }) })) };
}

/**
 * The regions that entered their opening state at this step take up the stories of the step's
 * opening requests, both in region order: the coordinator hands a story to the lowest free lane
 * first, one microstep each, and within one microstep XState enters states in document order.
 * The page test checks each lane's story against the story checks its steps ran.
 */
function assignStories(step: ReplayStep, changed: readonly string[], now: ReadonlyMap<string, string>, stories: Map<string, string>, requestOf: (key: string) => KeyedRequest | undefined): void {
  const requests = step.requested.map((requested) => requestOf(requested.key)).filter((request): request is KeyedRequest => request !== undefined);
  const taken = new Set<KeyedRequest>();
  for (const region of changed) {
    const { state, kind } = opening(region);
    if (now.get(region) !== state) continue;
    const request = requests.find((candidate) => candidate.request.kind === kind && !taken.has(candidate));
    if (!request) continue;
    taken.add(request);
    stories.set(region, laneOfRequest(request));
  }
}

/** The regions before the step: its `from` state's, or all idle when it enters the parallel state on the way. */
function regionsBefore(step: ReplayStep): Map<string, string> | null {
  const from = step.from === null ? null : regionsOf(step.from);
  if (from !== null) return from.regions;
  const entered = step.via.map(regionsOf).find((parallel) => parallel !== null);
  return entered === undefined || entered === null ? null : new Map([...entered.regions].map(([region]) => [region, 'idle']));
}

/** The regions after the step: its `to` state's, or the last parallel state passed on the way out. */
function regionsAfter(step: ReplayStep): Map<string, string> | null {
  const to = regionsOf(step.to);
  if (to !== null) return to.regions;
  const left = step.via.map(regionsOf).filter((parallel) => parallel !== null).pop();
  return left?.regions ?? null;
}
