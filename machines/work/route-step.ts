// The escalation ladder inside a work loop (DESIGN §15): which sequence the worker's call belongs
// to, which profile it runs as, and how its gates move the sequence's rung. Runs journaled before
// routing followed sequences keep one rung for the whole run (`routeStep`), as they did.
import { workerChoice } from '../routing/escalation-ladder.js';
import { noteWorkerCall, routeOf, sequenceKey, stepAfterAttempt } from '../routing/sequence-route.js';
import { routedWorker, type RoutedWorker } from '../routing/worker-route.js';
import type { AgentClassification } from '../effects.js';
import { acceptancePassed } from './goal-acceptance.js';
import { checkPassed, gatesDone } from './guard-report.js';
import type { WorkContext } from './work-context.js';
import type { WorkLoopOptions } from './work-loop-options.js';

/** The sequence the loop's current attempt belongs to: its story (stories), its chunk (saga), else the run. */
function currentSequence(o: WorkLoopOptions, context: WorkContext): string {
  return sequenceKey({ story: o.storyOf?.(context) ?? null, chunk: o.terminal ? null : context.chunk });
}

/**
 * The worker call of sequence `key`: its agent, model, profile and (escalate) why. The `…OfSequence`
 * functions take the sequence by key, so a caller with several sequences under way (parallel lanes,
 * keyed `story:<id>`) keeps each on its own rung in the same `routes`.
 */
export function workerOfSequence(context: WorkContext, key: string): RoutedWorker {
  return routedWorker(context.config, routeOf(context.routes, key), context.routing?.start ?? null);
}

/** A worker call of sequence `key` ended as `classification` and went on to the gates (escalate only). */
export function exitOfSequence(context: WorkContext, key: string, classification: AgentClassification | undefined): Partial<WorkContext> {
  return context.config.routing?.kind === 'escalate' ? { routes: noteWorkerCall(context.routes, key, classification) } : {};
}

/** An attempt of sequence `key` went through its gates: `failure` says which failed (null: none); escalate only. */
export function gatesOfSequence(context: WorkContext, key: string, failure: string | null): Partial<WorkContext> {
  return context.config.routing?.kind === 'escalate' ? { routes: stepAfterAttempt(context.routes, key, failure) } : {};
}

/** The worker call's agent, model, profile and (escalate, routing by sequence) why. */
export function workerRoute(o: WorkLoopOptions, context: WorkContext): RoutedWorker {
  if (context.sequenceRouting !== true) return workerChoice(context.config, context.routeStep, context.routing?.start ?? null);
  return workerOfSequence(context, currentSequence(o, context));
}

/** After a worker call that went on to the gates: remember how it ended (routing by sequence). */
export function noteWorkerExit(o: WorkLoopOptions, context: WorkContext, classification: AgentClassification | undefined): Partial<WorkContext> {
  return context.sequenceRouting === true ? exitOfSequence(context, currentSequence(o, context), classification) : {};
}

/** Which gates an attempt failed, in words: the boundary, each failing guard or check, acceptance. */
export function failedGates(context: Pick<WorkContext, 'violations' | 'checks' | 'acceptance'>): string {
  const parts: string[] = [];
  const paths = context.violations.map((violation) => violation.path);
  if (paths.length > 0) parts.push(`the boundary (${paths.slice(0, 3).join(', ')}${paths.length > 3 ? `, ${paths.length - 3} more` : ''})`);
  for (const check of context.checks) if (gatesDone(check) && !checkPassed(check)) parts.push(`${check.kind} ${check.name}`);
  const acceptance = context.acceptance;
  if (acceptance?.outcome === 'refused') parts.push('the acceptance check (it could not run)');
  else if (acceptance !== null && !acceptancePassed(acceptance)) {
    const failed = acceptance.criteria.filter((criterion) => criterion.status === 'failed').map((criterion) => `${criterion.kind === 'journey' ? 'journey' : 'accept'} ${criterion.name}`);
    parts.push(...(failed.length > 0 ? failed : ['the acceptance check']));
  }
  return parts.length > 0 ? parts.join(', ') : 'its acceptance criteria';
}

/**
 * The rung after the attempt's gates: `passed` (the attempt passed every gate and, in goal mode,
 * met acceptance) keeps it; a failure climbs one rung, except after an infrastructure failure
 * (routing by sequence). Without escalate, nothing changes.
 */
export function routeAfterGates(o: WorkLoopOptions, context: WorkContext, passed: boolean): Partial<WorkContext> {
  if (context.sequenceRouting !== true) {
    return { routeStep: context.config.routing?.kind === 'escalate' && !passed ? context.routeStep + 1 : context.routeStep };
  }
  return gatesOfSequence(context, currentSequence(o, context), passed ? null : `${o.unit} ${context.iteration} failed ${failedGates(context)}`);
}

/**
 * The worker profile the run's next call would use (what `yoke routing` says of an unfinished run):
 * the current sequence's rung, or the bottom for a sequence not started yet. `betweenUnits`: the
 * run is between two units (a saga between chunks), so its next worker call starts a new sequence.
 */
export function pendingWorkerRoute(context: WorkContext, betweenUnits: boolean): RoutedWorker {
  const start = context.routing?.start ?? null;
  if (context.sequenceRouting !== true) return workerChoice(context.config, betweenUnits ? 0 : context.routeStep, start);
  const key = sequenceKey({ story: context.prd?.current ?? null, chunk: context.mode === 'saga' ? context.chunk : null });
  return betweenUnits ? routedWorker(context.config, routeOf(undefined, key), start) : workerOfSequence(context, key);
}
