// The iteration states shared by loop, brute and each saga chunk: restore → worker → checks → report
// → (judge) → commit → next iteration, with call admission (budgets) before every agent call.
//
// Pure: every state that needs the world emits one `request` action; its result comes back as an
// event. Options only change which states exist and where they lead, decided when the machine is built.
import { assign, enqueueActions } from 'xstate';
import type { HookEvent } from '../../config/types.js';
import type { SetbackRole } from './agent-setbacks.js';
import { boundaryViolations } from '../boundary.js';
import { request, type EffectResult } from '../effects.js';
import { failureFingerprint } from './failure-fingerprint.js';
import { renderGuardReport, type CheckOutcome } from './guard-report.js';
import { planChecks } from './plan-checks.js';
import { renderTemplate } from '../render-template.js';
import {
  budgetBreached, callLimits, expectedHead, freshIteration, headParams, hookRequests, ignoredParams, iterationPassed, redactNames, spendCall, succeeded, workerDone,
  type RunOutput, type WorkContext,
} from './work-context.js';
import { workSetup } from './work-setup.js';

/** How a work loop is built. */
export interface WorkLoopOptions {
  /** brute/saga: a judge must agree before the loop succeeds */
  judged: boolean;
  /** a whole run (fires `done`/`bailout` hooks) rather than one saga chunk */
  terminal: boolean;
  /** the plan the worker follows, relative to .loop/ (`plan.md`, or `sub-plan.md` in saga) */
  planFile: string;
  /** goal: iterations are attempts, acceptance decides, repeated identical failures block */
  goal?: boolean;
}

/** Goal: the third attempt in a row failing the same way blocks the goal (`no-progress`). */
export const NO_PROGRESS_REPEATS = 3;

/** `VERDICT: PASS|FAIL` on the verdict's first line; anything else is a judge failure. */
export function parseVerdict(result: EffectResult<'file.inspect'>, stampBefore: string | null = null): { verdict: 'PASS' | 'FAIL'; problem: string | null } {
  if (!result.exists) return { verdict: 'FAIL', problem: 'the judge wrote no .loop/verdict.md' };
  // An older verdict left on disk (spec 2.2 keeps it) is never taken for this judge's.
  if (stampBefore !== null && result.stamp === stampBefore) return { verdict: 'FAIL', problem: 'the judge did not write .loop/verdict.md (it is unchanged since before the judge ran)' };
  const match = /^VERDICT:\s*(PASS|FAIL)\s*$/.exec((result.firstLine ?? '').trim());
  if (!match) return { verdict: 'FAIL', problem: `the first line of .loop/verdict.md is not \`VERDICT: PASS\` or \`VERDICT: FAIL\` (it is ${JSON.stringify(result.firstLine ?? '')})` };
  return { verdict: match[1] as 'PASS' | 'FAIL', problem: null };
}

/** An agent call cut short: counted, and its usage is unknown (budgets cannot see it). */
export function interrupted({ context }: { context: WorkContext }): Partial<WorkContext> {
  return { interruptions: context.interruptions + 1, spent: { ...context.spent, unknownUsage: context.spent.unknownUsage + 1 } };
}

function outcomeOf(context: WorkContext, result: EffectResult<'check.run'>): CheckOutcome {
  const planned = context.plan[context.checks.length];
  if (!planned) throw new Error('a check finished that was never planned');
  return { ...planned, result };
}

/** Every run's first state starts this way: `run-start` hooks, then back up the spec and capture the baseline tree. */
export const startRun = workSetup.createStateConfig({
  entry: enqueueActions(({ context, enqueue }) => {
    for (const hook of hookRequests(context.config, 'run-start', 0)) enqueue({ type: 'request', params: hook });
    enqueue({ type: 'request', params: request('baseline.capture', { specFiles: context.specFiles, ...ignoredParams(context.config) }) });
  }),
});

/** Admission before an agent call: read the clock if a wall budget needs it, then hold or go. */
export function gateStates(prefix: 'worker' | 'judge' | 'scoper', target: string, countsAsAttempt: boolean) {
  const gate = `${prefix}Gate`;
  return {
    [gate]: workSetup.createStateConfig({
      always: [
        { guard: 'needsClock', target: `${prefix}Clock` },
        {
          guard: { type: 'overBudget', params: { attempt: countsAsAttempt } },
          target: `${prefix}Hold`,
          actions: assign({ blockedOn: ({ context }) => budgetBreached(context, countsAsAttempt) }),
        },
        {
          target,
          actions: assign(({ context }) => ({
            clockFresh: false,
            spent: countsAsAttempt ? { ...context.spent, attempts: context.spent.attempts + 1 } : context.spent,
          })),
        },
      ],
    }),
    [`${prefix}Clock`]: workSetup.createStateConfig({
      entry: { type: 'request', params: () => request('clock.read', { purpose: `admission of a ${prefix} call` }) },
      on: {
        CLOCK_READ: {
          target: gate,
          actions: assign(({ context, event }) => ({ now: event.result.now, runStartedAt: context.runStartedAt ?? event.result.now, clockFresh: true })),
        },
      },
    }),
    // Not final: the run waits here until `yoke budget` raises the ceiling (or `--fresh`).
    [`${prefix}Hold`]: workSetup.createStateConfig({
      tags: ['paused'],
      on: { BUDGET_RAISED: { target: gate, actions: 'raiseBudget' } },
    }),
  };
}

/**
 * The AGENT_EXITED transitions tried before a role's normal one: a rate limit waits, an
 * authentication failure holds. The normal transition adds `clearRateLimits` (the streak ends).
 */
export function setbackTransitions(role: SetbackRole) {
  return [
    { guard: 'agentRateLimited', target: `${role}RateLimited`, actions: { type: 'noteRateLimit', params: { role } } },
    { guard: 'agentAuthFailed', target: `${role}AgentHold`, actions: { type: 'holdForAgent', params: { role } } },
  ] as const;
}

/** The rate-limit wait and the authentication hold of one role; both retry at `retryTarget`. */
export function setbackStates(role: SetbackRole, retryTarget: string) {
  return {
    [`${role}RateLimited`]: workSetup.createStateConfig({
      entry: {
        type: 'request',
        params: ({ context }) => request('wait.until', { until: context.waitUntil ?? 0, reason: `rate limit on the ${role} call (${context.rateLimits} in a row)` }),
      },
      on: { WAITED: { target: retryTarget, actions: assign({ waitUntil: null }) } },
    }),
    // Not final: `yoke run` journals AGENT_RETRY (the user fixed the credentials) and goes on.
    [`${role}AgentHold`]: workSetup.createStateConfig({
      tags: ['paused'],
      on: { AGENT_RETRY: { target: retryTarget, actions: assign({ heldFor: null, holdDetail: null }) } },
    }),
  };
}

function finalState(o: WorkLoopOptions, outcome: (context: WorkContext) => RunOutput, hook: HookEvent) {
  return workSetup.createStateConfig({
    type: 'final',
    entry: enqueueActions(({ context, enqueue }) => {
      enqueue.assign({ outcome: outcome(context) });
      for (const h of hookRequests(context.config, 'iteration-end', context.iteration)) enqueue({ type: 'request', params: h });
      if (o.terminal) for (const h of hookRequests(context.config, hook, context.iteration)) enqueue({ type: 'request', params: h });
    }),
  });
}

/** The states of one work loop; the caller adds `preparing` (root) or a chunk wrapper (saga). */
export function workLoopStates(o: WorkLoopOptions) {
  const S = workSetup.createStateConfig;
  const success = (context: WorkContext) => succeeded(context, o.judged);
  const judgeStates = !o.judged ? {} : {
    ...gateStates('judge', 'stampingVerdict', false),
    stampingVerdict: S({
      entry: { type: 'request', params: () => request('file.inspect', { file: 'verdict.md' }) },
      on: { FILE_INSPECTED: { target: 'judging', actions: assign({ verdictStampBefore: ({ event }) => event.result.stamp }) } },
    }),
    judging: S({
      entry: {
        type: 'request',
        params: ({ context }) => request('agent.spawn', {
          role: 'judge',
          iteration: context.iteration,
          ...(o.terminal ? {} : { chunk: context.chunk }),
          agent: context.config.judgeAgent ?? context.config.agent,
          model: context.config.judgeModel ?? context.config.model ?? null,
          prompt: renderTemplate(context.judgePrompt ?? '', { iteration: context.iteration, loopDir: context.loopDir }),
          ...callLimits(context.config),
        }),
      },
      on: {
        AGENT_EXITED: [...setbackTransitions('judge'), {
          target: 'readingVerdict',
          actions: [assign(({ context, event }) => ({ spent: spendCall(context, event.result) })), 'clearRateLimits'],
        }],
        // A judge cut short is asked again, fresh: a verdict from a partial judgment is never read.
        AGENT_INTERRUPTED: { target: 'judgeGate', actions: assign(interrupted) },
      },
    }),
    ...setbackStates('judge', 'judgeGate'),
    readingVerdict: S({
      entry: { type: 'request', params: () => request('file.inspect', { file: 'verdict.md' }) },
      on: {
        FILE_INSPECTED: {
          target: 'judged',
          actions: assign(({ context, event }) => {
            const { verdict, problem } = parseVerdict(event.result, context.verdictStampBefore);
            return { verdict, verdictProblem: problem, judgments: context.judgments + 1 };
          }),
        },
      },
    }),
    judged: S({
      always: [
        // Spec 2.4/2.5: only judgments triggered by DONE count; each FAIL resets the notes' status line.
        {
          guard: ({ context }) => context.judgeTrigger === 'done' && context.verdict === 'FAIL',
          target: 'resettingNotes',
          actions: assign({ consecutiveFailures: ({ context }) => context.consecutiveFailures + 1 }),
        },
        { guard: ({ context }) => context.verdict === 'PASS', target: 'settling', actions: assign({ consecutiveFailures: 0 }) },
        { target: 'settling' },
      ],
    }),
    resettingNotes: S({
      entry: { type: 'request', params: () => request('notes.reset', { file: 'notes.md', firstLine: 'STATUS: IN_PROGRESS' }) },
      on: { NOTES_RESET: 'settling' },
    }),
  };

  return {
    restoring: S({
      entry: {
        type: 'request',
        // Saga: the chunk's sub-plan is restored too (spec 1.1 inside a chunk).
        params: ({ context }) => request('spec.restore', { specFiles: { ...(context.baseline?.specFiles ?? {}), ...context.chunkSpecFiles } }),
      },
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
          agent: context.config.agent,
          model: context.config.model ?? null,
          ...(o.goal ? { attempt: context.iteration } : {}),
          prompt: renderTemplate(
            // Goal: the second identical failure in a row asks for a focused diagnosis first.
            o.goal && context.fingerprintRepeats === NO_PROGRESS_REPEATS - 1 ? `${context.workerPrompt}${context.diagnosePrompt ?? ''}` : context.workerPrompt,
            {
              iteration: context.iteration,
              maxIterations: context.maxIterations,
              loopDir: context.loopDir,
              planFile: o.planFile,
              attempt: context.iteration,
              maxAttempts: context.maxIterations,
            },
          ),
          ...callLimits(context.config),
        }),
      },
      on: {
        AGENT_EXITED: [...setbackTransitions('worker'), {
          target: 'readingNotes',
          actions: [assign(({ context, event }) => ({
            agentCalls: context.agentCalls + 1,
            spent: spendCall(context, event.result),
          })), 'clearRateLimits'],
        }],
        // The call was cut short (crash or signal): restore the spec and call the worker again
        // for the same iteration. The interrupted call's usage stays unknown in the journal.
        AGENT_INTERRUPTED: { target: 'restoring', actions: assign(interrupted) },
      },
    }),
    ...setbackStates('worker', 'restoring'),
    readingNotes: S({
      entry: { type: 'request', params: () => request('notes.read', { file: 'notes.md' }) },
      on: { NOTES_READ: { target: 'scanning', actions: assign({ notesFirstLine: ({ event }) => event.result.firstLine }) } },
    }),
    scanning: S({
      entry: { type: 'request', params: ({ context }) => request('boundary.scan', { baseline: context.baseline?.tree ?? '', ...headParams(context), ...ignoredParams(context.config) }) },
      on: {
        BOUNDARY_SCANNED: {
          target: 'routingChecks',
          actions: assign(({ context, event }) => ({
            changed: event.result.changed,
            violations: boundaryViolations(event.result, context.config, expectedHead(context)),
            plan: planChecks(context.config, context.iteration),
          })),
        },
      },
    }),
    routingChecks: S({
      always: [
        // Spec 1.4: a boundary violation skips every guard.
        { guard: 'boundaryBroken', target: 'reporting' },
        { guard: ({ context }) => context.plan.length === 0, target: 'reporting' },
        { target: 'checking' },
      ],
    }),
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
        CHECK_FINISHED: [
          {
            guard: ({ context }) => context.checks.length + 1 < context.plan.length,
            target: 'checking',
            reenter: true,
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
          }),
        }),
      },
      on: { FILE_WRITTEN: 'deciding' },
    }),
    deciding: S({
      always: o.goal ? [
        { guard: ({ context }) => success(context), target: 'settling' },
        {
          target: 'settling',
          actions: assign(({ context }) => {
            const fingerprint = failureFingerprint(context.checks, context.violations);
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
    ...judgeStates,
    settling: S({
      always: [
        {
          guard: ({ context }) => context.config.commit === 'each' ? iterationPassed(context) : context.config.commit === 'done' && success(context),
          target: 'committing',
        },
        { target: 'advancing' },
      ],
    }),
    committing: S({
      entry: {
        type: 'request',
        params: ({ context }) => request('commit.create', {
          message: success(context)
            ? `yoke: ${context.mode} done after ${context.mode === 'goal' ? 'attempt' : 'iteration'} ${context.iteration}`
            : `yoke: ${context.mode === 'goal' ? 'attempt' : 'iteration'} ${context.iteration}`,
          iteration: context.iteration,
          ...headParams(context),
        }),
      },
      on: { COMMITTED: { target: 'advancing', actions: 'noteCommit' } },
    }),
    advancing: S({
      always: [
        { guard: { type: 'succeeded', params: { judged: o.judged } }, target: 'done' },
        // Spec 2.5: exactly the Nth consecutive DONE-triggered FAIL bails out.
        ...(o.judged ? [{ guard: ({ context }: { context: WorkContext }) => context.consecutiveFailures >= context.config.maxJudgeFailures, target: 'bailedOut' }] : []),
        ...(o.goal ? [{ guard: ({ context }: { context: WorkContext }) => context.fingerprintRepeats >= NO_PROGRESS_REPEATS, target: 'noProgress' }] : []),
        { guard: ({ context }) => context.iteration >= context.maxIterations, target: 'exhausted' },
        {
          target: 'restoring',
          actions: enqueueActions(({ context, enqueue }) => {
            for (const hook of hookRequests(context.config, 'iteration-end', context.iteration)) enqueue({ type: 'request', params: hook });
            const next = context.iteration + 1;
            enqueue.assign({ iteration: next, ...freshIteration() });
            for (const hook of hookRequests(context.config, 'iteration-start', next)) enqueue({ type: 'request', params: hook });
          }),
        },
      ],
    }),
    done: finalState(o, (c) => ({ exitCode: 0, reason: o.goal ? 'goal-complete' : o.judged ? 'judge-pass' : 'done', iterations: c.iteration }), 'done'),
    exhausted: finalState(o, (c) => ({ exitCode: 1, reason: o.goal ? 'attempts' : 'max-iterations', iterations: c.iteration }), 'bailout'),
    ...(o.goal ? { noProgress: finalState(o, (c) => ({ exitCode: 1, reason: 'no-progress', iterations: c.iteration }), 'bailout') } : {}),
    ...(o.judged ? { bailedOut: finalState(o, (c) => ({ exitCode: 1, reason: 'judge-bailout', iterations: c.iteration }), 'bailout') } : {}),
  };
}
