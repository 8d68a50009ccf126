// The parallel stories coordinator (DESIGN §10): an XState parallel state with one region per lane
// (up to 8, `parallel N` of them in use) and one serial integration region. It hands ready stories
// to free lanes (the scheduling decision travels in each lane's `worktree.create` request, so it is
// journaled) and ends the run when no lane, candidate or schedulable story is left.
import { assign } from 'xstate';
import { selectStory } from '../stories/story-progress.js';
import type { WorkContext } from '../work/work-context.js';
import { workSetup } from '../work/work-setup.js';
import { integrationStates } from './integration-states.js';
import { parallelOf } from './lane-context.js';
import { laneStates } from './lane-states.js';
import { freshLane, initialParallel, LANE_SLOTS } from './parallel-state.js';
import { scheduleStory } from './schedule-story.js';

function busyStories(context: WorkContext): string[] {
  return parallelOf(context).slots.flatMap((slot) => (slot === null ? [] : [slot.story]));
}

/** A blocked story with `on-story-blocked stop`: lanes finish what they hold, none starts. */
function stopping(context: WorkContext): boolean {
  if (context.config.onStoryBlocked === 'skip') return false;
  return Object.values(context.prd?.progress ?? {}).some((progress) => progress.blocked !== null);
}

/** The free lane the next story goes to, or null when none may start now. */
function nextStart(context: WorkContext): { slot: number; story: string; reason: string } | null {
  const parallel = parallelOf(context);
  if (stopping(context) || parallel.turns >= context.maxIterations || !context.prd) return null;
  const slot = parallel.slots.findIndex((lane, index) => lane === null && index < (context.config.parallel ?? 1));
  if (slot < 0) return null;
  const next = scheduleStory(context.prd, busyStories(context), parallel.touched);
  return next === null ? null : { slot, ...next };
}

/** No lane at work, no candidate waiting or being integrated. */
function quiet(context: WorkContext): boolean {
  const parallel = parallelOf(context);
  return parallel.slots.every((slot) => slot === null) && parallel.queue.length === 0 && parallel.integration === null;
}


/** The `parallel` state of the stories machine. */
export function coordinatorState() {
  const regions = Object.fromEntries(Array.from({ length: LANE_SLOTS }, (_, i) => [`lane${i + 1}`, laneStates(i)]));
  return workSetup.createStateConfig({
    type: 'parallel',
    // The file-overlap prediction starts from earlier runs' lane boundary scans (journaled in the input).
    entry: assign(({ context }) => ({ parallel: initialParallel({ branch: context.baseline?.head?.branch ?? 'HEAD', sha: context.baseline?.head?.sha ?? '' }, { ...context.touchedBefore }) })),
    always: [
      { guard: ({ context }) => quiet(context) && context.prd !== undefined && selectStory(context.prd).kind === 'all-passed', target: 'done', actions: assign(({ context }) => ({ iteration: Math.max(1, parallelOf(context).turns) })) },
      {
        guard: ({ context }) => quiet(context) && nextStart(context) === null,
        target: 'parallelEnded',
        actions: assign(({ context }) => ({ iteration: Math.max(1, parallelOf(context).turns) })),
      },
      {
        guard: ({ context }) => nextStart(context) !== null,
        actions: assign(({ context }) => {
          const next = nextStart(context);
          if (next === null) return {};
          const parallel = parallelOf(context);
          const turns = parallel.turns + 1;
          const attempt = (context.prd?.progress[next.story]?.attempts ?? 0) + 1;
          const slots = parallel.slots.slice();
          slots[next.slot] = freshLane(next.story, next.reason, attempt, turns);
          return { iteration: turns, parallel: { ...parallel, slots, turns } };
        }),
      },
    ],
    states: { ...regions, integration: integrationStates() },
  });
}
