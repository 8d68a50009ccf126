// What `yoke routing` explains (DESIGN §15): the profile the next worker attempt uses and why. An
// unfinished run's next attempt is its own (folded from the journal: its sequence's rung, its
// journaled economic start, its journaled config); otherwise a new run's first attempt.
import { tierLadder } from '../../config/tier-ladder.js';
import type { Config } from '../../config/types.js';
import type { RoutingDecision } from '../../machines/routing/economic-choice.js';
import { pendingLaneRoutes } from '../../machines/parallel/lane-route.js';
import { pendingWorkerRoute } from '../../machines/work/route-step.js';
import type { WorkContext } from '../../machines/work/work-context.js';
import { YokeError } from '../../errors/yoke-error.js';
import { foldRun, startOf, unfinishedRun } from '../fold/journal-runs.js';
import type { JournalRecord } from '../journal/record.js';
import { routingDecisionFor } from './routing-sequences.js';

/** The unfinished run's next worker attempt. */
export interface PendingAttempt {
  run: string;
  /** the profile it runs as (null: the run's `agent` line names none) */
  profile: string | null;
  /** escalate (runs that route by sequence): why it runs on that rung */
  reason: string | null;
  /** a parallel run: each lane's next worker call, by the story it holds, in lane order (absent for a serial run) */
  lanes?: { story: string; profile: string | null; reason: string | null }[];
}

/** What `yoke routing --json` prints. */
export interface RoutingReport {
  routing: NonNullable<Config['routing']>['kind'];
  /** the profile the next worker attempt uses: the unfinished run's when there is one, else a new run's first (null: `agent` names no profile) */
  next: string | null;
  /** the profile a new run's first attempt uses (`yoke run --fresh`, or once the unfinished run ends) */
  newRun: string | null;
  /** the unfinished run `yoke run` would continue, and its next attempt (null: none, or it cannot be folded) */
  unfinished: PendingAttempt | null;
  /** escalate: the rungs a sequence climbs, one profile per tier, cheapest first */
  ladder: { profile: string; tier: string }[];
  /** economic: the decision a new run would make now (an unfinished run keeps the one journaled when it started) */
  decision: RoutingDecision | null;
}

/** The unfinished run's next attempt, folded from the journal (null: no unfinished run, or one this yoke cannot fold). */
function pendingAttempt(records: readonly JournalRecord[]): PendingAttempt | null {
  const run = unfinishedRun(records);
  if (run === null) return null;
  try {
    const fold = foldRun(records, startOf(records, run));
    const context = fold.snapshot.context as WorkContext;
    const value: unknown = fold.snapshot.value;
    // a saga outside a chunk starts its next chunk (a new sequence) before the next worker call
    const betweenUnits = context.mode === 'saga' && !(typeof value === 'object' && value !== null && 'chunk' in value);
    if (context.config.parallel !== undefined) {
      // parallel stories: each lane's story is on its own rung
      const { next, lanes } = pendingLaneRoutes(context);
      return {
        run, profile: next.profile ?? null, reason: next.routeReason ?? null,
        lanes: lanes.map((lane) => ({ story: lane.story, profile: lane.profile ?? null, reason: lane.routeReason ?? null })),
      };
    }
    const choice = pendingWorkerRoute(context, betweenUnits);
    return { run, profile: choice.profile ?? null, reason: choice.routeReason ?? null };
  } catch (error) {
    if (error instanceof YokeError) return null;
    throw error;
  }
}

/** The report for `config` (the yoke.conf a new run would start with) over the workspace's journal. */
export function routingReport(records: readonly JournalRecord[], config: Config): RoutingReport {
  const kind = config.routing?.kind ?? 'fixed';
  const decision = kind === 'economic' ? routingDecisionFor(records, config) : null;
  const ladder = kind === 'escalate' ? tierLadder(config.profiles ?? [], config.maxTier).map((profile) => ({ profile: profile.name, tier: profile.tier })) : [];
  const unfinished = pendingAttempt(records);
  const fresh = decision?.start ?? ladder[0]?.profile ?? config.agentProfile ?? null;
  return { routing: kind, next: unfinished === null ? fresh : unfinished.profile, newRun: fresh, unfinished, ladder, decision };
}
