// Protected files in a parallel stories lane (DESIGN §16 in §10's lanes): the baseline back in the
// worktree before every worker call, and a worker's change to it caught and restored before any check.
import { assign } from 'xstate';
import { request } from '../effects.js';
import { protectionDrift, restorePlan } from '../protect/protection-drift.js';
import { protectViolations } from '../protect/protect-violations.js';
import type { WorkContext } from '../work/work-context.js';
import { workSetup } from '../work/work-setup.js';
import { eventOfLane, laneAt, slotOf, updateSlot } from './lane-context.js';

/** Do this run's lanes keep protected files? Only runs that journal `laneProtect`, and only with a baseline. */
export function lanesProtect(context: Pick<WorkContext, 'laneProtect' | 'protection'>): boolean {
  return context.laneProtect === true && context.protection !== undefined;
}

/**
 * Lane `i`'s protection states: `restoringProtected` (after the spec restore, then `admitting`) and
 * `protecting` → [`unprotecting`] (after the boundary scan, then `routingChecks`). `restart` is the
 * lane's LANE_INTERRUPTED transition (a withdrawn turn effect sends the turn back to its restore step).
 */
export function laneProtectStates<R extends object>(i: number, restart: R) {
  const S = workSetup.createStateConfig;
  const mine = ({ context, event }: { context: WorkContext; event: { lane?: string } }) => eventOfLane(event, slotOf(context, i)?.story);
  const lane = (context: WorkContext) => laneAt(context, i);
  return {
    // The worktree holds the baseline's protected files before every worker call (the git-ignored
    // ones too, which a fresh worktree lacks); files that already match are left alone.
    restoringProtected: S({
      entry: { type: 'request', params: ({ context }) => request('protect.restore', { lane: lane(context).story, write: context.protection?.files ?? [], remove: [] }) },
      on: { PROTECT_RESTORED: { guard: mine, target: 'admitting' }, ...restart },
    }),
    protecting: S({
      entry: { type: 'request', params: ({ context }) => request('protect.scan', { lane: lane(context).story, patterns: context.protection?.patterns ?? [] }) },
      on: {
        PROTECT_SCANNED: [
          {
            guard: ({ context, event }) => mine({ context, event }) && protectionDrift(context.protection?.files ?? [], event.result.files).length > 0,
            target: 'unprotecting',
            actions: assign(({ context, event }) => {
              const drift = protectionDrift(context.protection?.files ?? [], event.result.files);
              return updateSlot(context, i, { violations: [...lane(context).violations, ...protectViolations(drift, context.protection?.patterns ?? [])], protectRestore: restorePlan(drift) });
            }),
          },
          { guard: mine, target: 'routingChecks' },
        ],
        ...restart,
      },
    }),
    // The worker's versions are kept as blobs by the scan; the baseline goes back before any check runs.
    unprotecting: S({
      entry: { type: 'request', params: ({ context }) => request('protect.restore', { lane: lane(context).story, ...(lane(context).protectRestore ?? { write: [], remove: [] }) }) },
      on: { PROTECT_RESTORED: { guard: mine, target: 'routingChecks', actions: assign(({ context }) => updateSlot(context, i, { protectRestore: null })) }, ...restart },
    }),
  };
}
