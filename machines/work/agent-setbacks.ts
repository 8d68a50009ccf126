// What a lifecycle does when an agent call could not do its work: a rate limit waits (journaled,
// resumable) and retries the same call; an authentication failure holds the run until `yoke run`
// is asked again. Neither burns an iteration or an attempt. The states live in `setback-states.ts`.
import type { AgentRole } from '../../config/lifecycle-catalog.js';
import type { EffectResult } from '../effects.js';
import { spendCall, type WorkContext } from './work-context.js';

/** The first wait after a rate limit when yoke.conf sets none (`rate-limit-wait`). */
export const RATE_LIMIT_WAIT_MS = 30_000;
/** Waits double per consecutive rate limit, up to this. */
export const RATE_LIMIT_MAX_WAIT_MS = 15 * 60_000;
/** A wait the API asked for is honored up to this. */
const RETRY_AFTER_MAX_MS = 60 * 60_000;

/** The agent role whose call is retried. */
export type SetbackRole = AgentRole;

/**
 * How long to wait after the `consecutive`-th rate limit in a row: what the API asked for when it
 * said (capped at an hour), else `baseMs` doubled per consecutive limit (capped at 15 minutes).
 * @example rateLimitWaitMs(3, null, 30_000) // 120_000
 */
export function rateLimitWaitMs(consecutive: number, retryAfterMs: number | null, baseMs: number): number {
  if (retryAfterMs !== null && retryAfterMs > 0) return Math.min(retryAfterMs, RETRY_AFTER_MAX_MS);
  return Math.min(baseMs * 2 ** Math.max(0, consecutive - 1), RATE_LIMIT_MAX_WAIT_MS);
}

/** Usage of a call that did no work still counts; a worker's admission (an attempt) is given back. */
function spentOnSetback(context: WorkContext, result: EffectResult<'agent.spawn'>, role: SetbackRole): WorkContext['spent'] {
  const spent = spendCall(context, result);
  return role === 'worker' ? { ...spent, attempts: Math.max(0, spent.attempts - 1) } : spent;
}

/** A rate-limited call: one more in the streak, and the wait ends `rateLimitWaitMs` after the call ended. */
export function noteRateLimit(context: WorkContext, result: EffectResult<'agent.spawn'>, role: SetbackRole): Partial<WorkContext> {
  const rateLimits = context.rateLimits + 1;
  const wait = rateLimitWaitMs(rateLimits, result.retryAfterMs ?? null, context.config.rateLimitWaitMs ?? RATE_LIMIT_WAIT_MS);
  return { rateLimits, waitUntil: (result.endedAt ?? 0) + wait, spent: spentOnSetback(context, result, role) };
}

/** A call that could not authenticate: the run is held until `yoke run` is asked again. */
export function holdForAgent(context: WorkContext, result: EffectResult<'agent.spawn'>, role: SetbackRole): Partial<WorkContext> {
  return {
    heldFor: 'agent:auth-error',
    holdDetail: `the ${role} agent could not authenticate: ${result.detail ?? 'no detail given'}`,
    spent: spentOnSetback(context, result, role),
  };
}

/**
 * A call that ended on a held tool call: the run is held until the operator answers it
 * (`heldFor: tool:<hold id>`); the next call resumes the agent's session where the CLI can.
 */
export function holdForTool(context: WorkContext, result: EffectResult<'agent.spawn'>, role: SetbackRole): Partial<WorkContext> {
  const held = result.toolHold;
  return {
    heldFor: `tool:${held?.id ?? 'unknown'}`,
    holdDetail: `the ${role} agent's tool call ${held?.id ?? ''} is held for the operator: ${result.detail ?? 'no detail given'}`,
    resumeSession: held?.session ?? null,
    spent: spentOnSetback(context, result, role),
  };
}

/**
 * A call whose CLI ran tool calls the gate never ruled on, or that was not started because the
 * CLI's settings switch its hooks off (DESIGN §13): the run is held until `yoke run` is asked
 * again, after the operator looked (`heldFor: agent:tool-ungated`).
 */
export function holdForUngated(context: WorkContext, result: EffectResult<'agent.spawn'>, role: SetbackRole): Partial<WorkContext> {
  return {
    heldFor: 'agent:tool-ungated',
    holdDetail: `the ${role} agent's tool calls went around yoke's gate: ${result.detail ?? 'no detail given'}`,
    spent: spentOnSetback(context, result, role),
  };
}
