// Routing per story in parallel lanes (DESIGN §10 with §15): each lane's story is its own sequence,
// on its own rung of the escalation ladder, kept in the run's `routes` under `story:<id>` as serial
// stories mode keeps it. Runs journaled before lanes routed per story (no `laneRouting` in their
// input) put every lane call on the run-wide `routeStep`, which lanes never moved, as they did.
import { checkPassed, gatesDone } from '../work/guard-report.js';
import { exitOfSequence, failedGates, gatesOfSequence, workerOfSequence } from '../work/route-step.js';
import type { WorkContext } from '../work/work-context.js';
import type { AgentClassification } from '../effects.js';
import { workerChoice } from '../routing/escalation-ladder.js';
import { routeOf, sequenceKey } from '../routing/sequence-route.js';
import { routedWorker, type RoutedWorker } from '../routing/worker-route.js';
import type { Integration, LaneSlot } from './parallel-state.js';

/** The agent, model, profile and (escalate, runs with `laneRouting`) why of story `story`'s next worker call. */
export function laneWorker(context: WorkContext, story: string): RoutedWorker {
  if (context.laneRouting !== true) return workerChoice(context.config, context.routeStep, context.routing?.start ?? null);
  return workerOfSequence(context, sequenceKey({ story }));
}

/** A lane's worker call ended as `classification` and goes on to the gates: remembered, so an infrastructure failure does not climb. */
export function laneWorkerExit(context: WorkContext, story: string, classification: AgentClassification | undefined): Partial<WorkContext> {
  return context.laneRouting === true ? exitOfSequence(context, sequenceKey({ story }), classification) : {};
}

/**
 * A lane's turn went through its gates. As in a serial run, the gates decide, not the notes: a
 * boundary or protected-file violation or a failing guard or story check climbs the story one rung
 * (unless its worker call ended in an infrastructure failure); a turn whose gates passed keeps it,
 * DONE or not.
 */
export function laneTurnGated(context: WorkContext, slot: LaneSlot): Partial<WorkContext> {
  if (context.laneRouting !== true) return {};
  const failed = slot.violations.length > 0 || slot.checks.some((check) => gatesDone(check) && !checkPassed(check));
  const failure = failed ? `iteration ${slot.iteration} failed ${failedGates({ violations: slot.violations, checks: slot.checks, acceptance: null })}` : null;
  return gatesOfSequence(context, sequenceKey({ story: slot.story }), failure);
}

/**
 * The integration lane rejected a story's candidate. A gate that failed on the integrated tree (a
 * guard or story check, a protected file) is a failed attempt of the story, as it would be in a
 * serial run, whose every attempt is gated on the target as it is: the story climbs one rung. A
 * conflict (gate `rebase`) never ran a gate on the work: it says when another story landed, not
 * how the model did, so the rung stays.
 */
export function laneRejected(context: WorkContext, story: string, slot: LaneSlot, rejection: NonNullable<Integration['rejection']>): Partial<WorkContext> {
  if (context.laneRouting !== true || rejection.gate === 'rebase') return {};
  return gatesOfSequence(context, sequenceKey({ story }), `attempt ${slot.attempt} was rejected at integration: ${rejection.gate} failed on the integrated tree`);
}

/** The next worker call of one lane, as `yoke routing` reports it. */
export interface PendingLane extends RoutedWorker {
  story: string;
}

/**
 * What the lanes of an unfinished parallel run call next (pure, from its folded context): each lane
 * holding a story, on that story's rung, in lane order; `next` is the first such lane's call, or
 * (no story in a lane) the call a story the scheduler starts next would make.
 */
export function pendingLaneRoutes(context: WorkContext): { next: RoutedWorker; lanes: PendingLane[] } {
  const slots = context.parallel?.slots ?? [];
  const lanes = slots.flatMap((slot) => (slot === null ? [] : [{ story: slot.story, ...laneWorker(context, slot.story) }]));
  const fresh = context.laneRouting === true ? routedWorker(context.config, routeOf(undefined, ''), context.routing?.start ?? null) : laneWorker(context, '');
  return { next: lanes[0] ?? fresh, lanes };
}
