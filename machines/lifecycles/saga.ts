// The saga lifecycle (DESIGN §2, spec §4): a scoper cuts the specification into chunks; each chunk
// runs as a brute loop (the same states, nested) with sub-plan.md as its plan.
//
// The scoper writes the next chunk to sub-plan.md, or `STATUS: DONE` to saga-notes.md (exit 0).
// A blank sub-plan aborts (exit 1). A chunk that passes, bails out or hits max-iterations returns
// control to the scoper, which may re-scope (spec 4.2). After each chunk, notes.md is read (a
// journaled fact) and saga-log.md is rewritten from all chunks' notes, so the log is a view of
// the journal, identical after a crash. `max-chunks` caps the saga.
import { assign, enqueueActions } from 'xstate';
import { request } from '../effects.js';
import { renderTemplate } from '../render-template.js';
import { renderSagaLog } from './saga-log.js';
import { roleModel } from '../routing/role-model.js';
import { callLimits, freshIteration, notesSayDone, protectionOutput, protectsEveryCall, spendCall, type RunOutput, type WorkContext } from '../work/work-context.js';
import { enqueueHooks } from '../work/enqueue-hooks.js';
import { afterCallRestore } from '../work/after-call-restore.js';
import type { MachineEvent } from '../effect-events.js';
import { callProtectStates } from '../work/call-protect-states.js';
import { gateStates } from '../work/gate-states.js';
import { protectionNote } from '../protect/protection-note.js';
import { promptWithContext, protectParam } from '../work/context-prompt.js';
import { interrupted, setbackStates, setbackTransitions } from '../work/setback-states.js';
import { startRun } from '../work/start-run.js';
import { workLoopStates } from '../work/work-loop.js';
import { contextFromInput, externalInputs, workSetup } from '../work/work-setup.js';
import { workLifecycle } from './work-lifecycle.js';

/** Bump when a change would make old journals fold differently. */
export const SAGA_MACHINE_VERSION = 1;

/** What the chunks' loop and the descriptor share: the name, the unit of work and the chunk's plan. */
const SAGA = { name: 'saga', unit: 'iteration', planFile: 'sub-plan.md' } as const;

/** A scoper call that did its work: its usage spent. */
function scoperCallDone({ context, event }: { context: WorkContext; event: MachineEvent }): Partial<WorkContext> {
  return event.type === 'AGENT_EXITED' ? { spent: spendCall(context, event.result) } : {};
}

function sagaEnd(outcome: (context: WorkContext) => RunOutput, hook: 'done' | 'bailout') {
  return workSetup.createStateConfig({
    type: 'final',
    entry: enqueueActions(({ context, enqueue }) => {
      // the protection digest, for runs started since it is part of every lifecycle's outcome (older ones end as journaled)
      enqueue.assign({ outcome: { ...outcome(context), ...(context.protectAll === true ? protectionOutput(context) : {}) } });
      enqueueHooks(enqueue, context.config, hook, context.iteration);
    }),
  });
}

export const sagaMachine = workSetup.createMachine({
  id: SAGA.name,
  context: contextFromInput,
  on: externalInputs,
  initial: 'preparing',
  states: {
    preparing: {
      ...startRun,
      on: { BASELINE_CAPTURED: { target: 'readingSagaLog', actions: assign({ baseline: ({ event }) => event.result }) } },
    },
    // Spec 4.5: a log that exists when the saga starts is kept in front of the new entries.
    readingSagaLog: {
      entry: { type: 'request', params: () => request('file.read', { file: 'saga-log.md' }) },
      on: { FILE_READ: { target: 'scoperRestoring', actions: assign({ sagaLogBefore: ({ event }) => event.result.content }) } },
    },
    scoperRestoring: {
      entry: { type: 'request', params: ({ context }) => request('spec.restore', { specFiles: context.baseline?.specFiles ?? {} }) },
      on: { SPEC_RESTORED: 'scoperGate' },
    },
    ...gateStates('scoper', 'scoping', false),
    scoping: {
      entry: {
        type: 'request',
        params: ({ context }) => request('agent.spawn', {
          role: 'scoper',
          iteration: 0,
          chunk: context.chunk + 1,
          agent: context.config.scoperAgent ?? context.config.agent,
          model: roleModel(context.config, 'scoper', context.sequenceRouting === true),
          prompt: promptWithContext(context, renderTemplate(context.scoperPrompt ?? '', { chunk: context.chunk + 1, maxChunks: context.config.maxChunks, loopDir: context.loopDir })
            // runs from before the scoper's call was scanned were never told (their prompts replay as journaled)
            + (protectsEveryCall(context) ? protectionNote(context.protection, 'scoper') : '')),
          ...callLimits(context.config, context.resumeSession),
          ...protectParam(context),
        }),
      },
      on: {
        AGENT_EXITED: [
          ...setbackTransitions('scoper'),
          // spec 1.1: the run's own spec files are put back first (then the protect scan)
          { guard: 'restoresAfterCalls', target: 'restoringAfterScoper', actions: [assign(scoperCallDone), 'clearRateLimits'] },
          // DESIGN §16: the scoper's changes to protected files are undone before the chunk starts.
          { guard: ({ context }) => protectsEveryCall(context), target: 'scoperProtecting', actions: [assign(scoperCallDone), 'clearRateLimits'] },
          { target: 'readingSagaNotes', actions: [assign(scoperCallDone), 'clearRateLimits'] },
        ],
        AGENT_INTERRUPTED: { target: 'scoperRestoring', actions: assign(interrupted) },
      },
    },
    ...setbackStates('scoper', 'scoperRestoring'),
    // The scoper's sub-plan is its output: only the run's own spec files are put back after it.
    restoringAfterScoper: afterCallRestore({ next: 'readingSagaNotes', protect: 'scoperProtecting' }, 'run'),
    ...callProtectStates('scoper', 'readingSagaNotes'),
    // Spec 4.1: the saga ends on saga-notes.md, never on notes.md.
    readingSagaNotes: {
      entry: { type: 'request', params: () => request('file.inspect', { file: 'saga-notes.md' }) },
      on: { FILE_INSPECTED: { target: 'routingScope', actions: assign({ sagaDone: ({ event }) => notesSayDone(event.result.firstLine) }) } },
    },
    routingScope: {
      always: [
        { guard: ({ context }) => context.sagaDone, target: 'sagaDone' },
        { guard: ({ context }) => context.chunk >= context.config.maxChunks, target: 'chunkCap' },
        { target: 'readingSubPlan' },
      ],
    },
    readingSubPlan: {
      entry: { type: 'request', params: () => request('file.inspect', { file: 'sub-plan.md' }) },
      on: {
        FILE_INSPECTED: [
          // Spec 4.3: a brute loop never runs without a plan.
          { guard: ({ event }) => event.result.blank, target: 'emptySubPlan', actions: assign({ subPlanBlank: true }) },
          { target: 'snapshottingChunk' },
        ],
      },
    },
    // The chunk's plan is backed up now and restored before each of its iterations.
    snapshottingChunk: {
      entry: { type: 'request', params: () => request('baseline.capture', { specFiles: ['sub-plan.md'] }) },
      on: {
        BASELINE_CAPTURED: {
          target: 'chunk',
          actions: enqueueActions(({ context, event, enqueue }) => {
            const chunk = context.chunk + 1;
            enqueue.assign({
              chunk, iteration: 1, ...freshIteration(), verdict: null, verdictProblem: null, consecutiveFailures: 0, outcome: null, routeStep: 0,
              chunkSpecFiles: event.result.specFiles,
            });
            enqueueHooks(enqueue, context.config, 'iteration-start', 1);
          }),
        },
      },
    },
    chunk: {
      initial: 'restoring',
      states: workLoopStates({ ...SAGA, judged: true, terminal: false }),
      // Spec 4.2: pass, bailout or cap, control returns to the scoper.
      onDone: 'loggingChunk',
    },
    loggingChunk: {
      entry: { type: 'request', params: () => request('file.read', { file: 'notes.md' }) },
      on: {
        FILE_READ: {
          target: 'writingLog',
          actions: assign(({ context, event }) => ({ sagaLog: [...context.sagaLog, { chunk: context.chunk, notes: event.result.content ?? '' }] })),
        },
      },
    },
    writingLog: {
      entry: { type: 'request', params: ({ context }) => request('file.write', { file: 'saga-log.md', content: renderSagaLog(context.sagaLog, context.sagaLogBefore) }) },
      on: { FILE_WRITTEN: 'scoperRestoring' },
    },
    sagaDone: sagaEnd((c) => ({ exitCode: 0, reason: 'saga-done', iterations: c.iteration }), 'done'),
    chunkCap: sagaEnd((c) => ({ exitCode: 1, reason: 'max-chunks', iterations: c.iteration }), 'bailout'),
    emptySubPlan: sagaEnd((c) => ({ exitCode: 1, reason: 'empty-sub-plan', iterations: c.iteration }), 'bailout'),
  },
  output: ({ context }) => context.outcome ?? { exitCode: 1, reason: 'max-chunks', iterations: context.iteration },
});

/** The saga lifecycle, as everything outside machines/ sees it. */
export const sagaLifecycle = workLifecycle({
  ...SAGA,
  summary: 'a scoper cuts specification.md into chunks; each runs as a brute loop',
  machine: sagaMachine,
  version: SAGA_MACHINE_VERSION,
  prompts: { worker: ['prompts/worker.md', 'prompts/worker-judged.md'], judge: ['prompts/judge.md'], scoper: ['prompts/scoper.md'] },
  features: ['judged', 'chunks'],
  finished: (reason, c) => {
    switch (reason) {
      case 'saga-done':
        return `saga done after ${c.chunk ?? '?'} chunk(s): saga-notes.md says DONE`;
      case 'max-chunks':
        return `saga stopped: reached max-chunks (${c.chunk ?? '?'}) before saga-notes.md said DONE`;
      case 'empty-sub-plan':
        return 'saga aborted: the scoper left .loop/sub-plan.md empty';
      default:
        return null;
    }
  },
  init: {
    files: {
      'yoke.conf': 'init/saga/yoke.conf',
      'protocol.md': 'init/saga/protocol.md',
      'specification.md': 'init/saga/specification.md',
      'judge.md': 'init/saga/judge.md',
      'sub-plan.md': 'init/saga/sub-plan.md',
      'notes.md': 'init/loop/notes.md',
      'saga-notes.md': 'init/saga/saga-notes.md',
      '.gitignore': 'init/loop/gitignore',
    },
    // sub-plan.md is the scoper's: backed up when each chunk starts, not when the run does.
    spec: ['protocol.md', 'specification.md', 'judge.md', 'yoke.conf'],
  },
});
