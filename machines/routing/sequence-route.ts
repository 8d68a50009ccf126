// Where each sequence stands on the escalation ladder (DESIGN §15), kept per sequence: a story, a
// saga chunk, or the whole run (loop, brute, goal). Pure, and keyed so that several sequences can
// be under way at once (parallel lanes each work on their own story).
import type { AgentClassification } from '../effects.js';

/** One sequence's place on the ladder. */
export interface SequenceRoute {
  /** the rung: attempts of this sequence that failed their gates so far */
  step: number;
  /** what made the last step up, in words (null before the first) */
  reason: string | null;
  /** how this sequence's latest worker call ended (null before one) */
  lastCall: AgentClassification | null;
}

/** Every sequence's route, by `sequenceKey`. */
export type SequenceRoutes = Readonly<Record<string, SequenceRoute>>;

/**
 * How a worker call can end without saying anything about the model's work: the process crashed,
 * went quiet past `idle-timeout`, ran past `agent-timeout`, or the model API failed on its side. Such
 * an attempt never escalates (rate limits, authentication and held tool calls never reach the gates).
 */
export const INFRASTRUCTURE_FAILURES: readonly AgentClassification[] = ['crashed', 'idle-timeout', 'timed-out', 'server-error'];

/** The key of the sequence a worker call belongs to: its story, else its saga chunk, else the run. */
export function sequenceKey(unit: { story?: string | null; chunk?: number | null }): string {
  if (unit.story !== undefined && unit.story !== null) return `story:${unit.story}`;
  if (unit.chunk !== undefined && unit.chunk !== null) return `chunk:${unit.chunk}`;
  return 'run';
}

const START: SequenceRoute = { step: 0, reason: null, lastCall: null };

/** The route of sequence `key` (a sequence not seen yet starts at the bottom). */
export function routeOf(routes: SequenceRoutes | undefined, key: string): SequenceRoute {
  return routes?.[key] ?? START;
}

/** The routes after a worker call of sequence `key` ended as `classification` (absent: an adapter from before classifications, `ok`). */
export function noteWorkerCall(routes: SequenceRoutes | undefined, key: string, classification: AgentClassification | undefined): SequenceRoutes {
  return { ...routes, [key]: { ...routeOf(routes, key), lastCall: classification ?? 'ok' } };
}

/**
 * The routes after an attempt of sequence `key` went through its gates: `failure` says which gates
 * failed (null: it passed). A failure steps the sequence up one rung, unless the worker call itself
 * ended in an infrastructure failure: then the gates judged no work of the model.
 * @example stepAfterAttempt({}, 'run', 'attempt 1 failed: accept shipped').run?.step // 1
 */
export function stepAfterAttempt(routes: SequenceRoutes | undefined, key: string, failure: string | null): SequenceRoutes {
  const route = routeOf(routes, key);
  if (failure === null || (route.lastCall !== null && INFRASTRUCTURE_FAILURES.includes(route.lastCall))) return { ...routes, [key]: route };
  return { ...routes, [key]: { ...route, step: route.step + 1, reason: failure } };
}
