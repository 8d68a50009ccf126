// Reading and changing one lane of the coordinator's context (pure helpers for the lane and integration states).
import { storyChecks, type Story } from '../../config/prd/story.js';
import { planChecks } from '../work/plan-checks.js';
import type { PlannedCheck } from '../work/guard-report.js';
import type { WorkContext } from '../work/work-context.js';
import { initialParallel, type LaneSlot, type ParallelState } from './parallel-state.js';

/** The coordinator's state (present once the run entered parallel mode). */
export function parallelOf(context: WorkContext): ParallelState {
  return context.parallel ?? initialParallel({ branch: '', sha: '' });
}

/** The lane in slot `i`, or null. */
export function slotOf(context: WorkContext, i: number): LaneSlot | null {
  return parallelOf(context).slots[i] ?? null;
}

/** The lane in slot `i`; throws when empty (a state that needs one was entered without). */
export function laneAt(context: WorkContext, i: number): LaneSlot {
  const slot = slotOf(context, i);
  if (slot === null) throw new Error(`lane ${i} is empty`);
  return slot;
}

/** The context change that sets slot `i` (null empties it). */
export function withSlot(context: WorkContext, i: number, slot: LaneSlot | null, more: Partial<ParallelState> = {}): { parallel: ParallelState } {
  const parallel = parallelOf(context);
  const slots = parallel.slots.slice();
  slots[i] = slot;
  return { parallel: { ...parallel, ...more, slots } };
}

/** The context change that merges `change` into slot `i`. */
export function updateSlot(context: WorkContext, i: number, change: Partial<LaneSlot>, more: Partial<ParallelState> = {}): { parallel: ParallelState } {
  return withSlot(context, i, { ...laneAt(context, i), ...change }, more);
}

/** The story a lane works on. */
export function storyOf(context: WorkContext, id: string): Story {
  const story = context.prd?.stories.find((candidate) => candidate.id === id);
  if (!story) throw new Error(`story ${id} is not in the run's list`);
  return story;
}

/** Every gate of a story's turn: the guards (and due periodics), then its `check` criteria. */
export function storyGates(context: WorkContext, story: Story, iteration: number): PlannedCheck[] {
  const criteria = story.acceptance ?? [];
  return [
    ...planChecks(context.config, iteration),
    ...storyChecks(story).map((criterion) => ({ kind: 'accept' as const, name: `${story.id}#${criteria.indexOf(criterion) + 1}`, command: criterion.check ?? '' })),
  ];
}

/**
 * `.loop/` of a lane's worktree, as the worker's prompt names its folder: `.loop` in its working
 * directory (the worktree's place depends on the machine, `laneLoopRelative`), or, in runs journaled
 * before, the path under the project's `.git/yoke/worktrees/` worked out from the main `.loop/`.
 */
export function laneLoopDir(context: Pick<WorkContext, 'loopDir' | 'laneLoopRelative'>, story: string): string {
  if (context.laneLoopRelative === true) return '.loop';
  const root = context.loopDir.replace(/[/\\]\.loop[/\\]?$/, '');
  return `${root}/.git/yoke/worktrees/${story}/.loop`;
}

/** Does an event belong to `story`'s lane? */
export function eventOfLane(event: { lane?: string }, story: string | null | undefined): boolean {
  return story != null && event.lane === story;
}
