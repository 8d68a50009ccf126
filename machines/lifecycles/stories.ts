// The stories lifecycle (DESIGN §8): a story list in prd.yaml, one story per iteration by a fresh
// worker, each passing only through yoke's gates and landing as one commit.
//
// Each iteration: select the ready story (lowest priority, then id) → Stop-the-Line when it has no
// acceptance criteria (the run is held before any agent call) → restore the spec → worker →
// boundary → guards → the story's `check` commands → the judge when `review on` → pass (clock,
// notes, then `story.pass`: passes: true + DECISIONS.md entry + the work in one commit) or fail
// (the guard results and verdict become the story's feedback; `max-story-attempts` DONE claims or
// the same failure three times in a row block it; `on-story-blocked` decides whether the run ends).
// Exit 0 when every story passed, 1 otherwise.
import { assign, enqueueActions } from 'xstate';
import { lacksCriteria } from '../../config/prd/story.js';
import { parsePrd } from '../../config/prd/parse-prd.js';
import { decisionEntry } from '../context/decision-entry.js';
import { request } from '../effects.js';
import { applyStoriesChange } from '../stories/stories-change.js';
import { storyCommandChecks, storyJourneyCheck } from '../stories/story-checks.js';
import { storyPromptValues } from '../stories/story-prompt.js';
import { prdResumeEdit, prdSinceLastRun } from '../stories/prd-resume-edit.js';
import { prdResumeRestore } from '../stories/prd-resume-restore.js';
import { prdPassConflicts } from '../stories/prd-pass-conflicts.js';
import { currentStory, initialPrd, progressText, selectStory, storiesPassed, updateProgress, type PrdState } from '../stories/story-progress.js';
import { enqueueHooks } from '../work/enqueue-hooks.js';
import { failureFingerprint } from '../work/failure-fingerprint.js';
import { renderGuardReport } from '../work/guard-report.js';
import { NO_PROGRESS_REPEATS, turnStates } from '../work/iteration-states.js';
import { judgeStates } from '../work/judge-states.js';
import { preparingState } from '../work/start-run.js';
import { coordinatorState } from '../parallel/coordinator-state.js';
import {
  freshIteration, headParams, heldSpecFiles, initialContext, notesSayDone, protectionOutput, restoresAfterCalls, workerDone, type RunOutput, type WorkContext,
} from '../work/work-context.js';
import type { WorkLoopOptions } from '../work/work-loop-options.js';
import { externalInputs, workSetup } from '../work/work-setup.js';
import type { LifecycleDescriptor, LoopFileReader } from './lifecycle-descriptor.js';
import { workLifecycle } from './work-lifecycle.js';

/** Bump when a change would make old journals fold differently. */
export const STORIES_MACHINE_VERSION = 1;

/** `max-story-attempts` when yoke.conf has none. */
export const DEFAULT_MAX_STORY_ATTEMPTS = 3;

/** What the machine and the descriptor share: the name, the unit of work and the plan file. */
const STORIES = { name: 'stories', unit: 'iteration', planFile: 'prd.yaml' } as const;

function prdOf(context: WorkContext): PrdState {
  return context.prd ?? initialPrd([]);
}

/** The shared work states, told about the current story: its prompt values, its checks, its id on agent calls. */
const OPTIONS: WorkLoopOptions = {
  ...STORIES,
  judged: false,
  terminal: true,
  promptValues: (context) => {
    const story = currentStory(context.prd);
    return story === null ? {} : storyPromptValues(prdOf(context), story);
  },
  extraChecks: storyCommandChecks,
  acceptance: storyJourneyCheck,
  storyOf: (context) => context.prd?.current ?? null,
  editsOnResume: true,
};

/** `{ spec }` for `story.pass`: prd.yaml's backup, onto which the flag is written; absent in runs that do not restore after calls (as journaled). */
function prdSpecParam(context: WorkContext): { spec?: string } {
  const spec = heldSpecFiles(context)['prd.yaml'];
  return restoresAfterCalls(context) && typeof spec === 'string' ? { spec } : {};
}

/** The story passed every gate: the worker said DONE, every check passed, and (review on) the judge said PASS. */
function storyPassed(context: WorkContext): boolean {
  return workerDone(context) && (context.config.review !== true || (context.judgeTrigger === 'done' && context.verdict === 'PASS'));
}

/** A failed iteration on the current story: its feedback, and (when the worker claimed DONE) one more attempt and the no-progress count. */
function noteFailure(context: WorkContext): Partial<WorkContext> {
  const prd = prdOf(context);
  const id = prd.current;
  if (id === null) return {};
  const progress = prd.progress[id];
  const report = renderGuardReport({
    iteration: context.iteration, maxIterations: context.maxIterations, notesFirstLine: context.notesFirstLine,
    changed: context.changed, violations: context.violations, checks: context.checks,
    ...(context.acceptance === null ? {} : { acceptance: context.acceptance }),
  });
  const judged = context.judgeTrigger === 'done' && context.verdict === 'FAIL';
  const verdict = judged ? `\n## Review: FAIL\n\n${context.verdictProblem ?? 'The judge said FAIL; its reasons are in `.loop/verdict.md`.'}\n` : '';
  if (!notesSayDone(context.notesFirstLine)) return { prd: updateProgress(prd, id, { feedback: `${report}${verdict}` }) };
  const fingerprint = `${failureFingerprint(context.checks, context.violations, context.acceptance)}${judged ? `\njudge FAIL ${context.verdictProblem ?? ''}` : ''}`;
  const repeats = fingerprint === progress?.lastFingerprint ? (progress.fingerprintRepeats + 1) : 1;
  const attempts = (progress?.attempts ?? 0) + 1;
  const max = context.config.maxStoryAttempts ?? DEFAULT_MAX_STORY_ATTEMPTS;
  const blocked = repeats >= NO_PROGRESS_REPEATS ? 'no-progress' : attempts >= max ? 'attempts' : null;
  return { prd: updateProgress(prd, id, { attempts, lastFingerprint: fingerprint, fingerprintRepeats: repeats, blocked, feedback: `${report}${verdict}` }) };
}

function storiesEnd(outcome: (context: WorkContext) => RunOutput, hook: 'done' | 'bailout') {
  return workSetup.createStateConfig({
    type: 'final',
    entry: enqueueActions(({ context, enqueue }) => {
      // the protection digest, for runs started since it is part of every lifecycle's outcome (older ones end as journaled)
      enqueue.assign({ outcome: { ...outcome(context), ...(context.protectAll === true ? protectionOutput(context) : {}) } });
      enqueueHooks(enqueue, context.config, 'iteration-end', context.iteration);
      enqueueHooks(enqueue, context.config, hook, context.iteration);
    }),
  });
}

const judge = judgeStates({ ...OPTIONS, judged: true });

export const storiesMachine = workSetup.createMachine({
  id: STORIES.name,
  context: ({ input }) => ({ ...initialContext(input), prd: initialPrd(input.stories ?? []) }),
  on: {
    ...externalInputs,
    // `yoke run --parallel N` on a resumed parallel run: lanes beyond N finish what they hold, no new ones start.
    SET_PARALLEL: {
      actions: assign(({ context, event }) => event.type !== 'SET_PARALLEL' ? {} : { config: { ...context.config, parallel: event.parallel } }),
    },
    // The user edited prd.yaml between runs: the new list, restored from now on. In runs that restore
    // after calls, a spec restore outstanding as the run resumed (decided before the edit) is
    // followed by one more (`restoreAgain`). The outstanding one puts back the edit, not the old file
    // (the runner hands it the spec files as the run holds them), so the second finds nothing to do;
    // it stays so journals recorded before fold as they did.
    STORIES_CHANGED: {
      actions: assign(({ context, event }) => event.type !== 'STORIES_CHANGED' ? {} : {
        prd: applyStoriesChange(prdOf(context), event.stories, event),
        chunkSpecFiles: event.prdBlob === null ? context.chunkSpecFiles : { ...context.chunkSpecFiles, 'prd.yaml': event.prdBlob },
        ...(event.prdBlob !== null && restoresAfterCalls(context) ? { restoreAgain: true } : {}),
      }),
    },
  },
  initial: 'preparing',
  states: {
    preparing: preparingState('choosing'),
    // `parallel N` (DESIGN §10): the coordinator; without it, one story at a time.
    choosing: {
      always: [
        { guard: ({ context }) => context.config.parallel !== undefined, target: 'parallel' },
        { target: 'selecting' },
      ],
    },
    parallel: coordinatorState(),
    parallelEnded: {
      always: [
        { guard: ({ context }) => context.parallel !== undefined && context.parallel.turns >= context.maxIterations, target: 'exhausted' },
        { guard: ({ context }) => Object.values(context.prd?.progress ?? {}).some((progress) => progress.blocked !== null), target: 'storyBlocked' },
        { target: 'storiesBlocked' },
      ],
    },
    selecting: {
      always: [
        { guard: ({ context }) => selectStory(prdOf(context)).kind === 'all-passed', target: 'done' },
        { guard: ({ context }) => selectStory(prdOf(context)).kind === 'none', target: 'storiesBlocked' },
        {
          // Stop-the-Line: a story with no acceptance criteria holds the run before any agent call.
          guard: ({ context }) => { const next = selectStory(prdOf(context)); return next.kind === 'story' && lacksCriteria(next.story); },
          target: 'stoppedLine',
          actions: assign(({ context }) => {
            const next = selectStory(prdOf(context));
            const id = next.kind === 'story' ? next.story.id : '?';
            return { heldFor: `story:${id}:no-acceptance`, holdDetail: `story ${id} has no acceptance criteria`, prd: { ...prdOf(context), current: id } };
          }),
        },
        {
          target: 'restoring',
          actions: assign(({ context }) => {
            const next = selectStory(prdOf(context));
            if (next.kind !== 'story') return {};
            const prd = prdOf(context);
            const iterations = (prd.progress[next.story.id]?.iterations ?? 0) + 1;
            return { prd: { ...updateProgress(prd, next.story.id, { iterations }), current: next.story.id, decisionNotes: null } };
          }),
        },
      ],
    },
    // Not final: `yoke run` (after prd.yaml is fixed) journals AGENT_RETRY and selects again.
    stoppedLine: {
      tags: ['paused'],
      on: { AGENT_RETRY: { target: 'selecting', actions: assign({ heldFor: null, holdDetail: null }) } },
    },
    ...turnStates(OPTIONS),
    deciding: {
      always: [
        { guard: ({ context }) => context.config.review === true && workerDone(context), target: 'judgeGate', actions: assign({ judgeTrigger: 'done' }) },
        { target: 'settling' },
      ],
    },
    ...judge,
    settling: {
      always: [
        { guard: ({ context }) => storyPassed(context), target: 'passClock' },
        { target: 'advancing', actions: assign(({ context }) => noteFailure(context)) },
      ],
    },
    // The decision entry's date is the journaled clock; its summary the passing attempt's notes.
    passClock: {
      entry: { type: 'request', params: ({ context }) => request('clock.read', { purpose: `the date of story ${context.prd?.current ?? '?'}'s decision entry` }) },
      on: { CLOCK_READ: { target: 'passNotes', actions: assign({ now: ({ event }) => event.result.now }) } },
    },
    passNotes: {
      entry: { type: 'request', params: () => request('file.read', { file: 'notes.md' }) },
      on: { FILE_READ: { target: 'passing', actions: assign({ prd: ({ context, event }) => ({ ...prdOf(context), decisionNotes: event.result.content }) }) } },
    },
    passing: {
      entry: {
        type: 'request',
        params: ({ context }) => {
          const story = currentStory(context.prd);
          if (story === null) throw new Error('passing entered with no current story');
          return request('story.pass', {
            story: story.id,
            message: `feat(${story.id}): ${story.title}`,
            iteration: context.iteration,
            decision: decisionEntry({ now: context.now ?? 0, id: story.id, title: story.title, notes: prdOf(context).decisionNotes }),
            commit: context.config.commit !== 'off',
            ...headParams(context),
            ...prdSpecParam(context),
          });
        },
      },
      on: {
        STORY_PASSED: {
          target: 'advancing',
          actions: assign(({ context, event }) => {
            const prd = prdOf(context);
            const id = prd.current ?? '';
            return {
              prd: { ...updateProgress(prd, id, { passed: true, commit: event.result.sha, feedback: null }), decisionNotes: null },
              lastCommit: event.result.sha ?? context.lastCommit,
              chunkSpecFiles: { ...context.chunkSpecFiles, 'prd.yaml': event.result.prdBlob },
            };
          }),
        },
      },
    },
    advancing: {
      always: [
        {
          guard: ({ context }) => {
            const id = context.prd?.current ?? null;
            return id !== null && context.prd?.progress[id]?.blocked != null && context.config.onStoryBlocked !== 'skip';
          },
          target: 'storyBlocked',
        },
        { guard: ({ context }) => selectStory(prdOf(context)).kind === 'all-passed', target: 'done' },
        { guard: ({ context }) => context.iteration >= context.maxIterations, target: 'exhausted' },
        {
          target: 'selecting',
          actions: enqueueActions(({ context, enqueue }) => {
            enqueueHooks(enqueue, context.config, 'iteration-end', context.iteration);
            const next = context.iteration + 1;
            enqueue.assign({ iteration: next, ...freshIteration(), verdict: null, verdictProblem: null, prd: { ...prdOf(context), current: null } });
            enqueueHooks(enqueue, context.config, 'iteration-start', next);
          }),
        },
      ],
    },
    done: storiesEnd((c) => ({ exitCode: 0, reason: 'stories-done', iterations: c.iteration }), 'done'),
    exhausted: storiesEnd((c) => ({ exitCode: 1, reason: 'max-iterations', iterations: c.iteration }), 'bailout'),
    storyBlocked: storiesEnd((c) => ({ exitCode: 1, reason: 'story-blocked', iterations: c.iteration }), 'bailout'),
    storiesBlocked: storiesEnd((c) => ({ exitCode: 1, reason: 'stories-blocked', iterations: c.iteration }), 'bailout'),
  },
  output: ({ context }) => context.outcome ?? { exitCode: 1, reason: 'stories-blocked', iterations: context.iteration },
});

const base = workLifecycle({
  ...STORIES,
  summary: 'one story of prd.yaml per iteration, each gated and committed on its own',
  machine: storiesMachine,
  version: STORIES_MACHINE_VERSION,
  prompts: { worker: ['prompts/story.md'], judge: ['prompts/judge.md', 'prompts/story-judge.md'] },
  features: ['stories'],
  init: {
    files: {
      'yoke.conf': 'init/stories/yoke.conf',
      'protocol.md': 'init/stories/protocol.md',
      'prd.yaml': 'init/stories/prd.yaml',
      'judge.md': 'init/stories/judge.md',
      'notes.md': 'init/loop/notes.md',
      '.gitignore': 'init/loop/gitignore',
    },
    spec: ['protocol.md', 'prd.yaml', 'judge.md', 'yoke.conf'],
  },
});

/**
 * Which stories are blocked, and why that ends the run: the current story (serial), or every blocked
 * one (parallel lanes have no current story; with `on-story-blocked skip` the run ends there once
 * nothing else can start).
 */
function blockedStories(c: Partial<WorkContext>): string {
  const blocked = Object.entries(c.prd?.progress ?? {}).filter(([, progress]) => progress.blocked !== null).map(([id]) => id);
  const ids = c.prd?.current != null || blocked.length === 0 ? [c.prd?.current ?? '?'] : blocked;
  const which = ids.length === 1 ? `story ${ids[0] ?? '?'} is blocked` : `stories ${ids.join(', ')} are blocked`;
  return `${which} (${c.config?.onStoryBlocked === 'skip' ? 'on-story-blocked skip, and no other story can start' : 'on-story-blocked stop'})`;
}

/** The line a finished stories run ends with; `max-iterations` is the shared one. */
function storiesFinished(reason: string, c: Partial<WorkContext>): string | null {
  switch (reason) {
    case 'stories-done':
      return `stories done ${c.agentCalls === 0 ? 'with no iteration run (every story had passed already)' : `after ${c.iteration ?? '?'} iteration(s)`}: ${c.prd ? progressText(c.prd) : 'every story passed'}`;
    case 'story-blocked':
      return `stopped: ${blockedStories(c)}; ${c.prd ? progressText(c.prd) : ''}; see \`yoke stories\``;
    case 'stories-blocked':
      return `stopped: no story is ready (the rest are blocked or wait on a blocked one); ${c.prd ? progressText(c.prd) : ''}; see \`yoke stories\``;
    default:
      return base.finished(reason, c);
  }
}

/** A judge's FAIL counts toward the story's attempts (`max-story-attempts`); `max-judge-failures` does not apply in this mode. */
function storyJudgeFail(c: Partial<WorkContext>): string | null {
  const story = c.prd?.current ?? null;
  if (story === null) return null;
  const attempt = (c.prd?.progress[story]?.attempts ?? 0) + 1;
  return `attempt ${attempt} of ${c.config?.maxStoryAttempts ?? DEFAULT_MAX_STORY_ATTEMPTS} on story ${story}`;
}

/** The stories lifecycle, as everything outside machines/ sees it: the judge is called only with `review on`; the run input carries prd.yaml's stories. */
export const storiesLifecycle = {
  ...base,
  fleet: true,
  rolesCalled: (config: Parameters<typeof base.rolesCalled>[0]) => (config.review === true ? base.roles : base.roles.filter((role) => role === 'worker')),
  validate: (readLoopFile: LoopFileReader) => parsePrd(readLoopFile('prd.yaml'), '.loop/prd.yaml').issues,
  resumeEdit: prdResumeEdit,
  resumeIssues: prdPassConflicts,
  resumeRestore: prdResumeRestore,
  sinceLastRun: prdSinceLastRun,
  finished: storiesFinished,
  judgeFail: storyJudgeFail,
  progress: (context: Partial<WorkContext>) => (context.prd ? { ...storiesPassed(context.prd), items: 'stories' } : null),
  // Stop-the-Line: a story with no acceptance criteria holds the run until prd.yaml gives it some.
  held: (run: string, context: WorkContext) => (context.heldFor?.startsWith('story:') === true
    ? `run ${run} is held: ${context.holdDetail ?? context.heldFor} (Stop-the-Line); add its acceptance criteria in .loop/prd.yaml and run \`yoke run\` again.`
    : null),
  input: (config: Parameters<typeof base.input>[0], canon: Parameters<typeof base.input>[1], loopDir: string, readLoopFile?: LoopFileReader) => ({
    ...base.input(config, canon, loopDir),
    stories: parsePrd(readLoopFile?.('prd.yaml') ?? null, '.loop/prd.yaml').stories ?? [],
    laneGates: true as const,
    laneSetbacks: true as const,
    storyJourneys: true as const,
    laneProtect: true as const,
    laneRequeue: true as const,
    laneToolGate: true as const,
    laneLoopRelative: true as const,
  }),
} satisfies LifecycleDescriptor;
