// One iteration of a work loop: restore → worker → (new runs: restore again) → notes → boundary → checks → report → deciding,
// then (after the judge, when judged) settling → commit → advancing to the next iteration or an end.
import { assign, enqueueActions } from 'xstate';
import { boundaryViolations } from '../boundary.js';
import type { MachineEvent } from '../effect-events.js';
import { protectionDrift, restorePlan } from '../protect/protection-drift.js';
import { protectionNote } from '../protect/protection-note.js';
import { protectViolations } from '../protect/protect-violations.js';
import { request, type EffectResult } from '../effects.js';
import { afterCallRestore, afterRestoreTransitions } from './after-call-restore.js';
import { decisionParams, decisionStates } from './decision-states.js';
import { enqueueHooks } from './enqueue-hooks.js';
import { failureFingerprint } from './failure-fingerprint.js';
import { goalAcceptanceParams, proofOf, usesCheckEngine } from './goal-acceptance.js';
import { gateStates } from './gate-states.js';
import { promptWithContext, protectParam } from './context-prompt.js';
import { renderGuardReport, type CheckOutcome } from './guard-report.js';
import { planChecks } from './plan-checks.js';
import { noteWorkerExit, routeAfterGates, workerRoute } from './route-step.js';
import { renderTemplate } from '../render-template.js';
import { interrupted, setbackStates, setbackTransitions } from './setback-states.js';
import {
  callLimits, expectedHead, freshIteration, hasContextLayer, headParams, heldSpecFiles, ignoredParams, iterationPassed, spendCall, succeeded, workerDone,
  type SuccessRule, type WorkContext,
} from './work-context.js';
import { redactNames } from '../redact-names.js';
import type { WorkLoopOptions } from './work-loop-options.js';
import { workSetup } from './work-setup.js';

/** Goal: the third attempt in a row failing the same way blocks the goal (`no-progress`). */
export const NO_PROGRESS_REPEATS = 3;

/** The success rule of a loop built with `o`. */
function successRule(o: WorkLoopOptions): SuccessRule {
  return { judged: o.judged, goal: o.goal ?? false };
}

function outcomeOf(context: WorkContext, result: EffectResult<'check.run'>): CheckOutcome {
  const planned = context.plan[context.checks.length];
  if (!planned) throw new Error('a check finished that was never planned');
  return { ...planned, result };
}

/** What a boundary scan tells the iteration: the changed paths, the boundary's violations, and the checks to run. */
function scannedBy(o: WorkLoopOptions, goal: boolean) {
  return ({ context, event }: { context: WorkContext; event: MachineEvent }): Partial<WorkContext> => {
    if (event.type !== 'BOUNDARY_SCANNED') return {};
    return {
      changed: event.result.changed,
      violations: boundaryViolations(event.result, context.config, expectedHead(context)),
      // With the check engine, the `accept` commands run inside `acceptance.check` instead.
      plan: [...planChecks(context.config, context.iteration, { accepts: goal && !usesCheckEngine(context) }), ...(o.extraChecks?.(context) ?? [])],
    };
  };
}

/** A worker call that did its work: one more completed call, its usage spent, and (routing by sequence) how it ended. */
function workerCallDone(o: WorkLoopOptions) {
  return ({ context, event }: { context: WorkContext; event: MachineEvent }): Partial<WorkContext> => (event.type === 'AGENT_EXITED' ? {
    agentCalls: context.agentCalls + 1,
    spent: spendCall(context, event.result),
    ...noteWorkerExit(o, context, event.result.classification),
  } : {});
}

/** `{ story }` for an agent call's params in stories mode; absent elsewhere (so other journals re-derive the same params). */
export function storyParam(o: WorkLoopOptions, context: WorkContext): { story?: string } {
  const story = o.storyOf?.(context) ?? null;
  return story === null ? {} : { story };
}

/** The worker's turn: restore the spec, admit and call the worker, read its notes, scan the boundary, run the checks, report, decide. */
export function turnStates(o: WorkLoopOptions) {
  const S = workSetup.createStateConfig;
  const restoreRequest = {
    type: 'request',
    // Saga: the chunk's sub-plan is restored too (spec 1.1 inside a chunk).
    params: ({ context }: { context: WorkContext }) => request('spec.restore', { specFiles: heldSpecFiles(context) }),
  } as const;
  const rule = successRule(o);
  const success = (context: WorkContext) => succeeded(context, rule);
  const scanned = scannedBy(o, rule.goal);
  // Stories: the story's journeys, one acceptance check after its commands (never for journals without them).
  const storyAcceptance = o.acceptance;
  const acceptanceDue = (context: WorkContext): boolean => storyAcceptance !== undefined && context.acceptance === null && storyAcceptance(context) !== null;
  return {
    restoring: S(o.editsOnResume === true ? {
      // stories: an edit of prd.yaml journaled while this restore was outstanding restores again
      entry: [restoreRequest, 'clearRestoreAgain'],
      on: { SPEC_RESTORED: afterRestoreTransitions({ next: 'workerGate', again: 'restoring' }) },
    } : {
      entry: restoreRequest,
      on: { SPEC_RESTORED: 'workerGate' },
    }),
    ...gateStates('worker', 'working', true),
    working: S({
      entry: {
        type: 'request',
        params: ({ context }) => request('agent.spawn', {
          role: 'worker',
          iteration: context.iteration,
          ...(o.terminal ? {} : { chunk: context.chunk }),
          ...workerRoute(o, context),
          ...(o.goal ? { attempt: context.iteration } : {}),
          ...storyParam(o, context),
          prompt: promptWithContext(context, renderTemplate(
            // Goal: the second identical failure in a row asks for a focused diagnosis first.
            o.goal && context.fingerprintRepeats === NO_PROGRESS_REPEATS - 1 ? `${context.workerPrompt}${context.diagnosePrompt ?? ''}` : context.workerPrompt,
            {
              iteration: context.iteration,
              maxIterations: context.maxIterations,
              loopDir: context.loopDir,
              planFile: o.planFile,
              attempt: context.iteration,
              maxAttempts: context.maxIterations,
              ...o.promptValues?.(context),
            },
          )) + protectionNote(context.protection, 'worker'),
          ...callLimits(context.config, context.resumeSession),
          ...protectParam(context),
        }),
      },
      on: {
        AGENT_EXITED: [
          ...setbackTransitions('worker'),
          { guard: 'restoresAfterCalls', target: 'restoringAfterWorker', actions: [assign(workerCallDone(o)), 'clearRateLimits'] },
          { target: 'readingNotes', actions: [assign(workerCallDone(o)), 'clearRateLimits'] },
        ],
        // The call was cut short (crash or signal): restore the spec and call the worker again
        // for the same iteration. The interrupted call's usage stays unknown in the journal.
        AGENT_INTERRUPTED: { target: 'restoring', actions: assign(interrupted) },
      },
    }),
    ...setbackStates('worker', 'restoring'),
    restoringAfterWorker: afterCallRestore({ next: 'readingNotes', ...(o.editsOnResume === true ? { again: 'restoringAfterWorker' } : {}) }, 'held'),
    readingNotes: S({
      entry: { type: 'request', params: () => request('notes.read', { file: 'notes.md' }) },
      on: { NOTES_READ: { target: 'scanning', actions: assign({ notesFirstLine: ({ event }) => event.result.firstLine }) } },
    }),
    scanning: S({
      entry: { type: 'request', params: ({ context }) => request('boundary.scan', { baseline: context.baseline?.tree ?? '', ...headParams(context), ...ignoredParams(context.config) }) },
      on: {
        BOUNDARY_SCANNED: [
          // DESIGN §16: with protected files, look at them too before any check runs.
          { guard: ({ context }) => context.protection !== undefined, target: 'protecting', actions: assign(scanned) },
          { target: 'routingChecks', actions: assign(scanned) },
        ],
      },
    }),
    protecting: S({
      entry: { type: 'request', params: ({ context }) => request('protect.scan', { patterns: context.protection?.patterns ?? [] }) },
      on: {
        PROTECT_SCANNED: [
          {
            guard: ({ context, event }) => protectionDrift(context.protection?.files ?? [], event.result.files).length > 0,
            target: 'unprotecting',
            actions: assign(({ context, event }) => {
              const drift = protectionDrift(context.protection?.files ?? [], event.result.files);
              return { violations: [...context.violations, ...protectViolations(drift, context.protection?.patterns ?? [])], protectRestore: restorePlan(drift) };
            }),
          },
          { target: 'routingChecks' },
        ],
      },
    }),
    unprotecting: S({
      // The agent's versions are kept as blobs by the scan; the baseline goes back before anything else runs.
      entry: { type: 'request', params: ({ context }) => request('protect.restore', context.protectRestore ?? { write: [], remove: [] }) },
      on: { PROTECT_RESTORED: 'routingChecks' },
    }),
    routingChecks: S({
      always: [
        // Spec 1.4: a boundary violation skips every guard.
        { guard: 'boundaryBroken', target: 'reporting' },
        // Goal (check engine): acceptance first, then the guards.
        ...(rule.goal ? [{
          guard: ({ context }: { context: WorkContext }) => usesCheckEngine(context) && context.acceptance === null && goalAcceptanceParams(context) !== null,
          target: 'accepting',
        }] : []),
        // Stories: no check to run before the journeys.
        ...(storyAcceptance === undefined ? [] : [{ guard: ({ context }: { context: WorkContext }) => context.plan.length === 0 && acceptanceDue(context), target: 'accepting' }]),
        { guard: ({ context }) => context.plan.length === 0, target: 'reporting' },
        { target: 'checking' },
      ],
    }),
    ...(rule.goal || storyAcceptance !== undefined ? {
      accepting: S({
        entry: {
          type: 'request',
          params: ({ context }) => {
            const params = (storyAcceptance ?? goalAcceptanceParams)(context);
            if (params === null) throw new Error('accepting entered with no acceptance criterion');
            return request('acceptance.check', params);
          },
        },
        on: {
          ACCEPTANCE_CHECKED: {
            // goal: the guards next; stories: every other check has run
            target: rule.goal ? 'routingChecks' : 'reporting',
            actions: assign(({ context, event }) => ({ acceptance: event.result, lastProof: proofOf(event.result, context.iteration) ?? context.lastProof })),
          },
        },
      }),
    } : {}),
    checking: S({
      entry: {
        type: 'request',
        params: ({ context }) => {
          const check = context.plan[context.checks.length];
          if (!check) throw new Error('checking entered with no check left to run');
          return request('check.run', { kind: check.kind, name: check.name, command: check.command, iteration: context.iteration, timeoutMs: context.config.guardTimeoutMs, ...redactNames(context.config) });
        },
      },
      on: {
        // Stories with journeys: after the last check, the acceptance check (the same step, one alternative more).
        CHECK_FINISHED: storyAcceptance === undefined ? [
          {
            guard: ({ context }) => context.checks.length + 1 < context.plan.length,
            target: 'checking',
            reenter: true,
            actions: assign({ checks: ({ context, event }) => [...context.checks, outcomeOf(context, event.result)] }),
          },
          { target: 'reporting', actions: assign({ checks: ({ context, event }) => [...context.checks, outcomeOf(context, event.result)] }) },
        ] : [
          {
            guard: ({ context }) => context.checks.length + 1 < context.plan.length,
            target: 'checking',
            reenter: true,
            actions: assign({ checks: ({ context, event }) => [...context.checks, outcomeOf(context, event.result)] }),
          },
          {
            guard: ({ context }) => acceptanceDue(context),
            target: 'accepting',
            actions: assign({ checks: ({ context, event }) => [...context.checks, outcomeOf(context, event.result)] }),
          },
          { target: 'reporting', actions: assign({ checks: ({ context, event }) => [...context.checks, outcomeOf(context, event.result)] }) },
        ],
      },
    }),
    reporting: S({
      entry: {
        type: 'request',
        params: ({ context }) => request('file.write', {
          file: 'guard-results.md',
          content: renderGuardReport({
            iteration: context.iteration,
            maxIterations: context.maxIterations,
            notesFirstLine: context.notesFirstLine,
            changed: context.changed,
            violations: context.violations,
            checks: context.checks,
            ...(context.acceptance === null ? {} : { acceptance: context.acceptance }),
          }),
        }),
      },
      on: {
        FILE_WRITTEN: {
          target: 'deciding',
          // escalate: an attempt that failed its gates moves the next one up a tier (setbacks never reach here).
          actions: assign(({ context }) => routeAfterGates(o, context, iterationPassed(context) && (!o.goal || success(context)))),
        },
      },
    }),
    deciding: S({
      always: o.goal ? [
        { guard: ({ context }) => success(context), target: 'settling' },
        {
          target: 'settling',
          actions: assign(({ context }) => {
            const fingerprint = failureFingerprint(context.checks, context.violations, context.acceptance);
            return { lastFingerprint: fingerprint, fingerprintRepeats: fingerprint === context.lastFingerprint ? context.fingerprintRepeats + 1 : 1 };
          }),
        },
      ] : !o.judged ? [{ target: 'settling' }] : [
        // Spec 2.6: DONE (with passing guards) always triggers judgment; judge-every adds feedback.
        { guard: ({ context }) => workerDone(context), target: 'judgeGate', actions: assign({ judgeTrigger: 'done' }) },
        {
          guard: ({ context }) => context.config.judgeEvery !== undefined && context.iteration % context.config.judgeEvery === 0 && context.violations.length === 0,
          target: 'judgeGate',
          actions: assign({ judgeTrigger: 'cadence' }),
        },
        { target: 'settling' },
      ],
    }),
  };
}

/** Closing the iteration: commit when the commit policy says so, then the next iteration or an end. */
export function settleStates(o: WorkLoopOptions) {
  const S = workSetup.createStateConfig;
  const rule = successRule(o);
  const success = (context: WorkContext) => succeeded(context, rule);
  const commitsNow = (context: WorkContext) => context.config.commit === 'each' ? iterationPassed(context) : context.config.commit === 'done' && success(context);
  return {
    settling: S({
      always: [
        // DESIGN §9: with the context layer, the success's commit carries its DECISIONS.md entry.
        { guard: ({ context }) => commitsNow(context) && success(context) && hasContextLayer(context), target: 'decisionClock' },
        { guard: ({ context }) => commitsNow(context), target: 'committing' },
        { target: 'advancing' },
      ],
    }),
    ...decisionStates(o),
    committing: S({
      entry: {
        type: 'request',
        params: ({ context }) => request('commit.create', {
          message: success(context)
            ? `yoke: ${o.name} done after ${o.unit} ${context.iteration}`
            : `yoke: ${o.unit} ${context.iteration}`,
          iteration: context.iteration,
          ...headParams(context),
          ...decisionParams(context),
        }),
      },
      on: { COMMITTED: { target: 'advancing', actions: ['noteCommit', assign({ decisionNow: null, decisionNotes: null, decisionEntry: null })] } },
    }),
    advancing: S({
      always: [
        { guard: { type: 'succeeded', params: rule }, target: 'done' },
        // Spec 2.5: exactly the Nth consecutive DONE-triggered FAIL bails out.
        ...(o.judged ? [{ guard: ({ context }: { context: WorkContext }) => context.consecutiveFailures >= context.config.maxJudgeFailures, target: 'bailedOut' }] : []),
        ...(o.goal ? [{ guard: ({ context }: { context: WorkContext }) => context.fingerprintRepeats >= NO_PROGRESS_REPEATS, target: 'noProgress' }] : []),
        { guard: ({ context }) => context.iteration >= context.maxIterations, target: 'exhausted' },
        {
          target: 'restoring',
          actions: enqueueActions(({ context, enqueue }) => {
            enqueueHooks(enqueue, context.config, 'iteration-end', context.iteration);
            const next = context.iteration + 1;
            enqueue.assign({ iteration: next, ...freshIteration() });
            enqueueHooks(enqueue, context.config, 'iteration-start', next);
          }),
        },
      ],
    }),
  };
}
