// How effect outcomes become machine events: the only door through which facts enter a machine.
import { z } from 'zod';
import { storySchema } from '../config/prd/story.js';
import { budgetDimensionSchema } from '../config/types.js';
import { protectionSchema } from './protect/protection.js';
import { effectSchemas, type EffectKind, type EffectRequest, type EffectResult } from './effects.js';

/** Event type fed to the machine when an effect of this kind completes; null = fire-and-forget. */
export const COMPLETION_EVENT = {
  'baseline.capture': 'BASELINE_CAPTURED',
  'spec.restore': 'SPEC_RESTORED',
  'agent.spawn': 'AGENT_EXITED',
  'notes.read': 'NOTES_READ',
  'boundary.scan': 'BOUNDARY_SCANNED',
  'check.run': 'CHECK_FINISHED',
  'acceptance.check': 'ACCEPTANCE_CHECKED',
  'file.write': 'FILE_WRITTEN',
  'hook.fire': null,
  'commit.create': 'COMMITTED',
  'file.inspect': 'FILE_INSPECTED',
  'file.read': 'FILE_READ',
  'notes.reset': 'NOTES_RESET',
  'clock.read': 'CLOCK_READ',
  'wait.until': 'WAITED',
  'protect.scan': 'PROTECT_SCANNED',
  'protect.restore': 'PROTECT_RESTORED',
  'story.pass': 'STORY_PASSED',
  'context.read': 'CONTEXT_READ',
  'worktree.create': 'WORKTREE_READY',
  'candidate.commit': 'CANDIDATE_COMMITTED',
  'candidate.rebase': 'CANDIDATE_REBASED',
  'candidate.reject': 'CANDIDATE_REJECTED',
  'story.land': 'STORY_LANDED',
  'worktree.remove': 'WORKTREE_REMOVED',
} as const satisfies { [K in EffectKind]: string | null };

/** Event fed when a `surface` effect was cut short by a crash or a signal; null = nothing to tell. */
export const INTERRUPTION_EVENT = {
  'agent.spawn': 'AGENT_INTERRUPTED',
  'hook.fire': null,
} as const;

/** Parallel stories: the lane an outcome belongs to, copied from its request (absent in serial runs, so their events stay as they were). */
const LANE = { lane: z.string().optional() };

/** The lane of a request, when it runs in one. */
function laneOf(request: EffectRequest): { lane?: string } {
  const lane = (request.params as { lane?: unknown }).lane;
  return typeof lane === 'string' ? { lane } : {};
}

/** Every event any lifecycle machine accepts, validated when read back from the journal. */
export const machineEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('BASELINE_CAPTURED'), result: effectSchemas['baseline.capture'].result, ...LANE }),
  z.object({ type: z.literal('SPEC_RESTORED'), result: effectSchemas['spec.restore'].result, ...LANE }),
  z.object({ type: z.literal('AGENT_EXITED'), result: effectSchemas['agent.spawn'].result, ...LANE }),
  z.object({ type: z.literal('AGENT_INTERRUPTED'), reason: z.string(), ...LANE }),
  /** Parallel stories: a lane's effect other than its agent call will not run, because its worktree was made again (the lane goes back to its restore step). */
  z.object({ type: z.literal('LANE_INTERRUPTED'), reason: z.string(), lane: z.string() }),
  z.object({ type: z.literal('NOTES_READ'), result: effectSchemas['notes.read'].result, ...LANE }),
  z.object({ type: z.literal('BOUNDARY_SCANNED'), result: effectSchemas['boundary.scan'].result, ...LANE }),
  z.object({ type: z.literal('CHECK_FINISHED'), result: effectSchemas['check.run'].result, ...LANE }),
  z.object({ type: z.literal('ACCEPTANCE_CHECKED'), result: effectSchemas['acceptance.check'].result, ...LANE }),
  z.object({ type: z.literal('FILE_WRITTEN'), result: effectSchemas['file.write'].result, ...LANE }),
  z.object({ type: z.literal('COMMITTED'), result: effectSchemas['commit.create'].result, ...LANE }),
  z.object({ type: z.literal('FILE_INSPECTED'), result: effectSchemas['file.inspect'].result, ...LANE }),
  z.object({ type: z.literal('FILE_READ'), result: effectSchemas['file.read'].result, ...LANE }),
  z.object({ type: z.literal('NOTES_RESET'), result: effectSchemas['notes.reset'].result, ...LANE }),
  z.object({ type: z.literal('CLOCK_READ'), result: effectSchemas['clock.read'].result, ...LANE }),
  z.object({ type: z.literal('WAITED'), result: effectSchemas['wait.until'].result, ...LANE }),
  z.object({ type: z.literal('PROTECT_SCANNED'), result: effectSchemas['protect.scan'].result, ...LANE }),
  z.object({ type: z.literal('PROTECT_RESTORED'), result: effectSchemas['protect.restore'].result, ...LANE }),
  /** `yoke protect refresh` while this run was unfinished: from now on it protects the refreshed baseline. */
  z.object({ type: z.literal('PROTECTION_REFRESHED'), protection: protectionSchema }),
  z.object({ type: z.literal('STORY_PASSED'), result: effectSchemas['story.pass'].result, ...LANE }),
  z.object({ type: z.literal('WORKTREE_READY'), result: effectSchemas['worktree.create'].result, ...LANE }),
  z.object({ type: z.literal('CANDIDATE_COMMITTED'), result: effectSchemas['candidate.commit'].result, ...LANE }),
  z.object({ type: z.literal('CANDIDATE_REBASED'), result: effectSchemas['candidate.rebase'].result, ...LANE }),
  z.object({ type: z.literal('CANDIDATE_REJECTED'), result: effectSchemas['candidate.reject'].result, ...LANE }),
  z.object({ type: z.literal('STORY_LANDED'), result: effectSchemas['story.land'].result, ...LANE }),
  z.object({ type: z.literal('WORKTREE_REMOVED'), result: effectSchemas['worktree.remove'].result, ...LANE }),
  z.object({ type: z.literal('CONTEXT_READ'), result: effectSchemas['context.read'].result, ...LANE }),
  /**
   * Stories: `yoke run` found `.loop/prd.yaml` changed since the run last saw it (the user edited it
   * between runs): the new list, the blob restored from now on, and what changed. `reopened` are
   * passed stories whose criteria changed: they are not passed any more.
   */
  z.object({
    type: z.literal('STORIES_CHANGED'),
    stories: z.array(storySchema),
    prdBlob: z.string().nullable(),
    added: z.array(z.string()),
    removed: z.array(z.string()),
    edited: z.array(z.string()),
    reopened: z.array(z.string()),
  }),
  /** `yoke run --max-iterations N` on resume: an external input, journaled like any other. */
  z.object({ type: z.literal('SET_MAX_ITERATIONS'), max: z.number().int().positive() }),
  /** `yoke run --parallel N` on a resumed parallel stories run (DESIGN §10): the new number of lanes. */
  z.object({ type: z.literal('SET_PARALLEL'), parallel: z.number().int().min(1).max(8) }),
  /** `yoke budget --<dimension> <value>`: raises (or sets) a ceiling of the unfinished run. */
  z.object({ type: z.literal('BUDGET_RAISED'), dimension: budgetDimensionSchema, value: z.number().nonnegative() }),
  /** `yoke run` on a run held by its agent (an authentication failure): try the call again. */
  z.object({ type: z.literal('AGENT_RETRY') }),
]);
export type MachineEvent = z.infer<typeof machineEventSchema>;

/** Does completing this request produce a machine event? */
export function awaitsEvent(request: EffectRequest): boolean {
  return COMPLETION_EVENT[request.kind] !== null;
}

/** The event for a completed effect, or null for fire-and-forget kinds; `result` is validated on the way. */
export function completionEvent(request: EffectRequest, result: EffectResult<EffectKind>): MachineEvent | null {
  const event = checkedCompletionEvent(request, result);
  return event === null ? null : machineEventSchema.parse(event);
}

/**
 * `completionEvent` for a `result` its kind's result schema (`effectSchemas[kind].result`) has
 * already returned: the event is built as `machineEventSchema` would return it, without parsing
 * the result a second time (the event's `result` is that same schema, and its output parses to
 * itself). The runner checks every result before journaling it and the fold every journaled one
 * before it asks for the event, so they use this.
 */
export function checkedCompletionEvent(request: EffectRequest, result: EffectResult<EffectKind>): MachineEvent | null {
  const type = COMPLETION_EVENT[request.kind];
  if (type === null) return null;
  return { type, result, ...laneOf(request) } as MachineEvent;
}

/**
 * The event for an interrupted effect, or null when the machine need not know: a `surface` effect cut
 * short by a crash or a signal, or (parallel stories) a lane's effect that yoke did not run because
 * the lane's worktree had to be made again on resume (`LANE_INTERRUPTED`; only `LaneDriver` journals
 * such an interruption, so journals from before it never hold one).
 */
export function interruptionEvent(request: EffectRequest, reason: string): MachineEvent | null {
  if (request.kind === 'agent.spawn') return { type: 'AGENT_INTERRUPTED', reason, ...laneOf(request) };
  const lane = laneOf(request).lane;
  if (lane !== undefined && LANE_INTERRUPTIBLE.has(request.kind)) return { type: 'LANE_INTERRUPTED', reason, lane };
  return null;
}

/**
 * The effects of a lane's turn that yoke may withdraw when it makes the lane's worktree again on
 * resume (the turn starts over from its restore step): every turn effect that needs the worktree.
 */
export const LANE_INTERRUPTIBLE: ReadonlySet<EffectKind> = new Set<EffectKind>([
  'context.read', 'notes.read', 'boundary.scan', 'protect.scan', 'protect.restore', 'check.run', 'file.write', 'file.read', 'candidate.commit',
]);
