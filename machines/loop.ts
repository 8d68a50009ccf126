// The loop lifecycle (DESIGN §2, spec §1) as a pure XState machine.
//
// The machine never performs I/O. Each state that needs the world emits a `request` action whose
// params are an EffectRequest decided purely from context; the runner journals and executes it
// and feeds the result back as the matching event (machines/effect-events.ts). Replaying the same
// events therefore reproduces the same states and the same requests, byte for byte.
import { assign, enqueueActions, setup } from 'xstate';
import type { Config, HookEvent } from '../config/types.js';
import { findViolations, type Violation } from './boundary.js';
import type { MachineEvent } from './effect-events.js';
import { request, type EffectRequest, type EffectResult } from './effects.js';
import { checkPassed, gatesDone, renderGuardReport, type CheckOutcome, type PlannedCheck } from './guard-report.js';
import { renderTemplate } from './render-template.js';

/** Bump when a change would make old journals fold differently (replay refuses other versions). */
export const LOOP_MACHINE_VERSION = 1;

/** Everything the loop needs, journaled in `run.started`. */
export interface LoopInput {
  config: Config;
  /** canon/prompts/worker.md at the time the run started */
  workerPrompt: string;
  /** absolute path of `.loop/` */
  loopDir: string;
  /** spec files (relative to .loop/) backed up at start and restored before every iteration */
  specFiles: string[];
}

/** How a loop run ended; the CLI turns `exitCode` into the process status. */
export interface LoopOutput {
  exitCode: 0 | 1;
  reason: 'done' | 'max-iterations';
  iterations: number;
}

export interface LoopContext extends LoopInput {
  maxIterations: number;
  /** current iteration, 1-based */
  iteration: number;
  baseline: EffectResult<'baseline.capture'> | null;
  notesFirstLine: string | null;
  changed: string[];
  violations: Violation[];
  plan: PlannedCheck[];
  checks: CheckOutcome[];
  /** completed worker calls (interrupted ones are not counted) */
  agentCalls: number;
  /** worker calls cut short by a crash or a signal */
  interruptions: number;
  /** set on entering a final state */
  outcome: LoopOutput | null;
}

/** `STATUS: DONE` on the first line of notes.md (surrounding whitespace tolerated). */
export function notesSayDone(firstLine: string | null): boolean {
  return firstLine !== null && /^STATUS:\s*DONE\s*$/.test(firstLine.trim());
}

/** The checks to run this iteration: guards, then each due periodic followed by its guard-afters. */
export function planChecks(config: Config, iteration: number): PlannedCheck[] {
  const plan: PlannedCheck[] = config.guards.map((g) => ({ kind: 'guard', name: g.name, command: g.command }));
  for (const periodic of config.periodics) {
    if (iteration % periodic.every !== 0) continue;
    plan.push({ kind: 'periodic', name: periodic.name, command: periodic.command });
    for (const after of config.guardAfters) {
      if (after.periodic === periodic.name) plan.push({ kind: 'guard-after', name: after.name, command: after.command });
    }
  }
  return plan;
}

function hookRequests(config: Config, event: HookEvent, iteration: number): EffectRequest[] {
  return config.hooks.filter((h) => h.event === event).map((h) => request('hook.fire', { event, command: h.command, iteration }));
}

/** Did this iteration pass the boundary and every gating check? */
function iterationPassed(context: LoopContext): boolean {
  return context.violations.length === 0 && context.checks.filter(gatesDone).every(checkPassed);
}

function succeeded(context: LoopContext): boolean {
  return notesSayDone(context.notesFirstLine) && iterationPassed(context);
}

function commitWanted(context: LoopContext): boolean {
  if (context.config.commit === 'off') return false;
  if (context.config.commit === 'done') return succeeded(context);
  return iterationPassed(context);
}

const freshIteration = {
  notesFirstLine: null,
  changed: [],
  violations: [],
  plan: [],
  checks: [],
} satisfies Partial<LoopContext>;

export const loopMachine = setup({
  types: {
    input: {} as LoopInput,
    context: {} as LoopContext,
    events: {} as MachineEvent,
    output: {} as LoopOutput,
  },
  actions: {
    /** Executed by the runner, never by XState: the machine only states what it needs. */
    request: (_, _params: EffectRequest) => undefined,
  },
  guards: {
    boundaryBroken: ({ context }) => context.violations.length > 0,
    noChecksPlanned: ({ context }) => context.plan.length === 0,
    wantsCommit: ({ context }) => commitWanted(context),
    succeeded: ({ context }) => succeeded(context),
    lastIteration: ({ context }) => context.iteration >= context.maxIterations,
  },
}).createMachine({
  id: 'loop',
  context: ({ input }) => ({
    ...input,
    maxIterations: input.config.maxIterations,
    iteration: 1,
    baseline: null,
    ...freshIteration,
    agentCalls: 0,
    interruptions: 0,
    outcome: null,
  }),
  on: {
    SET_MAX_ITERATIONS: { actions: assign({ maxIterations: ({ event }) => event.max }) },
  },
  initial: 'preparing',
  states: {
    preparing: {
      entry: enqueueActions(({ context, enqueue }) => {
        for (const hook of hookRequests(context.config, 'run-start', 0)) enqueue({ type: 'request', params: hook });
        enqueue({ type: 'request', params: request('baseline.capture', { specFiles: context.specFiles }) });
      }),
      on: {
        BASELINE_CAPTURED: {
          target: 'restoring',
          actions: [
            assign({ baseline: ({ event }) => event.result }),
            enqueueActions(({ context, enqueue }) => {
              for (const hook of hookRequests(context.config, 'iteration-start', context.iteration)) enqueue({ type: 'request', params: hook });
            }),
          ],
        },
      },
    },
    restoring: {
      entry: {
        type: 'request',
        params: ({ context }) => request('spec.restore', { specFiles: context.baseline?.specFiles ?? {} }),
      },
      on: { SPEC_RESTORED: 'working' },
    },
    working: {
      entry: {
        type: 'request',
        params: ({ context }) =>
          request('agent.spawn', {
            role: 'worker',
            iteration: context.iteration,
            agent: context.config.agent,
            model: context.config.model ?? null,
            prompt: renderTemplate(context.workerPrompt, {
              iteration: context.iteration,
              maxIterations: context.maxIterations,
              loopDir: context.loopDir,
            }),
            idleTimeoutMs: context.config.idleTimeoutMs,
          }),
      },
      on: {
        AGENT_EXITED: { target: 'readingNotes', actions: assign({ agentCalls: ({ context }) => context.agentCalls + 1 }) },
        // The call was cut short (crash or signal): restore the spec and call the worker again
        // for the same iteration. The interrupted call's usage stays unknown in the journal.
        AGENT_INTERRUPTED: { target: 'restoring', actions: assign({ interruptions: ({ context }) => context.interruptions + 1 }) },
      },
    },
    readingNotes: {
      entry: { type: 'request', params: () => request('notes.read', { file: 'notes.md' }) },
      on: { NOTES_READ: { target: 'scanning', actions: assign({ notesFirstLine: ({ event }) => event.result.firstLine }) } },
    },
    scanning: {
      entry: { type: 'request', params: ({ context }) => request('boundary.scan', { baseline: context.baseline?.tree ?? '' }) },
      on: {
        BOUNDARY_SCANNED: {
          target: 'routingChecks',
          actions: assign(({ context, event }) => ({
            changed: event.result.changed,
            violations: findViolations(event.result.changed, context.config.allow, context.config.noModify),
            plan: planChecks(context.config, context.iteration),
          })),
        },
      },
    },
    routingChecks: {
      always: [
        // Spec 1.4: a boundary violation skips every guard.
        { guard: 'boundaryBroken', target: 'reporting' },
        { guard: 'noChecksPlanned', target: 'reporting' },
        { target: 'checking' },
      ],
    },
    checking: {
      entry: {
        type: 'request',
        params: ({ context }) => {
          const check = context.plan[context.checks.length];
          if (!check) throw new Error('checking entered with no check left to run');
          return request('check.run', {
            kind: check.kind,
            name: check.name,
            command: check.command,
            iteration: context.iteration,
            timeoutMs: context.config.guardTimeoutMs,
          });
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
          {
            target: 'reporting',
            actions: assign({ checks: ({ context, event }) => [...context.checks, outcomeOf(context, event.result)] }),
          },
        ],
      },
    },
    reporting: {
      entry: {
        type: 'request',
        params: ({ context }) =>
          request('file.write', {
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
    },
    deciding: {
      always: [{ guard: 'wantsCommit', target: 'committing' }, { target: 'advancing' }],
    },
    committing: {
      entry: {
        type: 'request',
        params: ({ context }) =>
          request('commit.create', {
            message: succeeded(context) ? `yoke: loop done after iteration ${context.iteration}` : `yoke: iteration ${context.iteration}`,
            iteration: context.iteration,
          }),
      },
      on: { COMMITTED: 'advancing' },
    },
    advancing: {
      always: [
        { guard: 'succeeded', target: 'done' },
        { guard: 'lastIteration', target: 'exhausted' },
        {
          target: 'restoring',
          actions: enqueueActions(({ context, enqueue }) => {
            for (const hook of hookRequests(context.config, 'iteration-end', context.iteration)) enqueue({ type: 'request', params: hook });
            const next = context.iteration + 1;
            enqueue.assign({ iteration: next, ...freshIteration });
            for (const hook of hookRequests(context.config, 'iteration-start', next)) enqueue({ type: 'request', params: hook });
          }),
        },
      ],
    },
    done: {
      type: 'final',
      entry: enqueueActions(({ context, enqueue }) => {
        enqueue.assign({ outcome: { exitCode: 0, reason: 'done', iterations: context.iteration } });
        for (const hook of hookRequests(context.config, 'iteration-end', context.iteration)) enqueue({ type: 'request', params: hook });
        for (const hook of hookRequests(context.config, 'done', context.iteration)) enqueue({ type: 'request', params: hook });
      }),
    },
    exhausted: {
      type: 'final',
      entry: enqueueActions(({ context, enqueue }) => {
        enqueue.assign({ outcome: { exitCode: 1, reason: 'max-iterations', iterations: context.iteration } });
        for (const hook of hookRequests(context.config, 'iteration-end', context.iteration)) enqueue({ type: 'request', params: hook });
        for (const hook of hookRequests(context.config, 'bailout', context.iteration)) enqueue({ type: 'request', params: hook });
      }),
    },
  },
  output: ({ context }) => context.outcome ?? { exitCode: 1, reason: 'max-iterations', iterations: context.iteration },
});

function outcomeOf(context: LoopContext, result: EffectResult<'check.run'>): CheckOutcome {
  const planned = context.plan[context.checks.length];
  if (!planned) throw new Error('a check finished that was never planned');
  return { ...planned, result };
}
