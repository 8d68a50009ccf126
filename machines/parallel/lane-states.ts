// One lane of the parallel stories coordinator (DESIGN §10): a region of the coordinator's parallel state
// that works one story in its worktree, turn by turn, until its candidate is committed and integrated.
//
// idle → creating (worktree) → restoring (spec, then [restoringProtected] the protected files) →
// admitting (budgets) → [readingContext] → working (worker; a rate limit waits in rateLimited, an
// authentication failure holds in agentHold) → [restoringAfterWorker] (spec) → readingNotes →
// scanning (boundary) → [protecting → unprotecting] (protected files) → checking (guards, story
// checks) → reporting (guard-results.md) → deciding: a passing turn reads the notes and commits the
// candidate, then waits in `queued` for the integration lane; a failing turn becomes the story's
// feedback and the lane goes again (or parks when the story is blocked or the run is out of
// iterations; its worktree is kept). Landed → the worktree is removed; rejected → the story goes
// back to the scheduler (older runs: a fresh attempt at once in a worktree reset to the new target).
// A turn effect withdrawn because the worktree was made again on resume (LANE_INTERRUPTED) sends the
// lane back to its restore step. Every request names the lane, and the lane listens only to events
// carrying its story.
import { assign } from 'xstate';
import { boundaryViolations } from '../boundary.js';
import { withContextBlock } from '../context/context-block.js';
import { DEFAULT_CONTEXT_BUDGET } from '../context/context-files.js';
import type { MachineEvent } from '../effect-events.js';
import { request } from '../effects.js';
import { protectionNote } from '../protect/protection-note.js';
import { renderTemplate } from '../render-template.js';
import { storyPromptValues } from '../stories/story-prompt.js';
import { updateProgress } from '../stories/story-progress.js';
import { holdForAgent, holdForTool, holdForUngated, noteRateLimit } from '../work/agent-setbacks.js';
import { failureFingerprint } from '../work/failure-fingerprint.js';
import { checkPassed, gatesDone, renderGuardReport, type CheckOutcome } from '../work/guard-report.js';
import { NO_PROGRESS_REPEATS } from '../work/iteration-states.js';
import {
  budgetBreached, callLimits, heldSpecFiles, injectsContext, notesSayDone, restoresAfterCalls, spendCall, type WorkContext,
} from '../work/work-context.js';
import { redactNames } from '../redact-names.js';
import { workSetup } from '../work/work-setup.js';
import { eventOfLane, laneAt, laneLoopDir, parallelOf, slotOf, storyGates, storyOf, updateSlot, withSlot } from './lane-context.js';
import { lanesProtect, laneProtectStates } from './lane-protect-states.js';
import { laneTurnGated, laneWorker, laneWorkerExit } from './lane-route.js';
import { freshLane, laneBranch, type LaneSlot } from './parallel-state.js';

/** `max-story-attempts` when yoke.conf has none (as in serial stories mode). */
const DEFAULT_MAX_STORY_ATTEMPTS = 3;

/** Did the lane's turn pass: DONE, no boundary violation, every gating check passed? */
export function turnPassed(slot: LaneSlot): boolean {
  return notesSayDone(slot.notesFirstLine) && slot.violations.length === 0 && slot.checks.filter(gatesDone).every(checkPassed);
}

/** The guard results a lane's turn leaves in its worktree (and as the story's feedback when it failed). */
function laneReport(context: WorkContext, slot: LaneSlot): string {
  return renderGuardReport({
    iteration: slot.iteration, maxIterations: context.maxIterations, notesFirstLine: slot.notesFirstLine,
    changed: slot.changed, violations: slot.violations, checks: slot.checks,
  });
}

/** A failed turn: its feedback, and (when the worker claimed DONE) one more attempt and the no-progress count. */
function noteLaneFailure(context: WorkContext, slot: LaneSlot): Partial<WorkContext> {
  const prd = context.prd;
  if (!prd) return {};
  const feedback = laneReport(context, slot);
  if (!notesSayDone(slot.notesFirstLine)) return { prd: updateProgress(prd, slot.story, { feedback }) };
  const progress = prd.progress[slot.story];
  const fingerprint = failureFingerprint(slot.checks, slot.violations);
  const repeats = fingerprint === progress?.lastFingerprint ? progress.fingerprintRepeats + 1 : 1;
  const attempts = (progress?.attempts ?? 0) + 1;
  const max = context.config.maxStoryAttempts ?? DEFAULT_MAX_STORY_ATTEMPTS;
  const blocked = repeats >= NO_PROGRESS_REPEATS ? 'no-progress' : attempts >= max ? 'attempts' : null;
  return { prd: updateProgress(prd, slot.story, { attempts, lastFingerprint: fingerprint, fingerprintRepeats: repeats, blocked, feedback }) };
}

function blockedStory(context: WorkContext, story: string): boolean {
  return context.prd?.progress[story]?.blocked != null;
}

/** What makes a lane call wait or hold instead of going on to its notes. */
type LaneSetback = 'rate-limited' | 'auth-error' | 'tool-held' | 'tool-ungated';

/**
 * A lane call's setbacks wait or hold (DESIGN §10 with §4's rate limits and authentication failures),
 * in runs that journal them so; a held or ungated tool call holds the lane (DESIGN §13) in runs whose
 * lanes go through the tool-call gate (`laneToolGate`).
 */
function setbackOf(context: WorkContext, event: { type: string; result?: { classification?: string } }): LaneSetback | null {
  if (context.laneSetbacks !== true || event.type !== 'AGENT_EXITED') return null;
  const classification = event.result?.classification;
  if (classification === 'rate-limited' || classification === 'auth-error') return classification;
  if (context.laneToolGate === true && (classification === 'tool-held' || classification === 'tool-ungated')) return classification;
  return null;
}

/**
 * A lane's worker call that did its work: one more completed call, its usage spent, the rate-limit
 * streak over (in runs that journal setbacks), and how it ended for its story's route (runs that
 * route lanes per story; the event carries the lane's story).
 */
function laneCallDone({ context, event }: { context: WorkContext; event: MachineEvent }): Partial<WorkContext> {
  if (event.type !== 'AGENT_EXITED') return {};
  return {
    agentCalls: context.agentCalls + 1, spent: spendCall(context, event.result), ...(context.laneSetbacks === true ? { rateLimits: 0 } : {}),
    ...(event.lane === undefined ? {} : laneWorkerExit(context, event.lane, event.result.classification)),
  };
}

/** An admitted lane call spends one attempt of the run's budget. */
const admitted = ({ context }: { context: WorkContext }): Partial<WorkContext> => ({ spent: { ...context.spent, attempts: context.spent.attempts + 1 } });

/** The states of lane `i`. */
export function laneStates(i: number) {
  const S = workSetup.createStateConfig;
  const mine = ({ context, event }: { context: WorkContext; event: { lane?: string } }) => eventOfLane(event, slotOf(context, i)?.story);
  const lane = (context: WorkContext) => laneAt(context, i);
  // A turn effect withdrawn because the lane's worktree was made again on resume: the turn starts over from its restore step.
  const restart = {
    LANE_INTERRUPTED: { guard: mine, target: 'restoring' as const, actions: workSetup.assign(({ context }) => ({ interruptions: context.interruptions + 1 })) },
  };
  // DESIGN §16: restoringProtected, protecting, unprotecting
  const protection = laneProtectStates(i, restart);
  // What a boundary scan tells the turn: the changed paths (the story's touched files too), the violations, the gates to run.
  const scanned = ({ context, event }: { context: WorkContext; event: MachineEvent }) => {
    if (event.type !== 'BOUNDARY_SCANNED') return {};
    const slot = lane(context);
    const touched = { ...parallelOf(context).touched, [slot.story]: event.result.changed };
    return updateSlot(context, i, {
      changed: event.result.changed,
      violations: boundaryViolations(event.result, context.config, null),
      plan: storyGates(context, storyOf(context, slot.story), slot.iteration),
      checks: [],
    }, { touched });
  };
  // the worker call did its work; a session it resumed is done with
  const workerDone = ({ context, event }: { context: WorkContext; event: MachineEvent }): Partial<WorkContext> => ({
    ...laneCallDone({ context, event }),
    ...(lane(context).resumeSession == null ? {} : updateSlot(context, i, { resumeSession: null })),
  });
  const nextTurn = (context: WorkContext, change: Partial<LaneSlot> = {}) => {
    const turns = parallelOf(context).turns + 1;
    return {
      iteration: turns,
      ...updateSlot(context, i, { iteration: turns, notesFirstLine: null, changed: [], violations: [], plan: [], checks: [], ...change }, { turns }),
    };
  };
  return {
    initial: 'idle',
    states: {
      idle: S({ always: { guard: ({ context }) => slotOf(context, i) !== null, target: 'creating' } }),
      creating: S({
        entry: {
          type: 'request',
          params: ({ context }) => {
            const slot = lane(context);
            const target = parallelOf(context).target;
            return request('worktree.create', {
              lane: slot.story, story: slot.story, branch: laneBranch(context.run ?? '', slot.story), base: target.sha, attempt: slot.attempt, reason: slot.reason,
            });
          },
        },
        on: { WORKTREE_READY: { guard: mine, target: 'restoring', actions: assign(({ context, event }) => updateSlot(context, i, { base: event.result.sha, baseTree: event.result.tree })) } },
      }),
      restoring: S({
        entry: {
          type: 'request',
          params: ({ context }) => request('spec.restore', { lane: lane(context).story, specFiles: heldSpecFiles(context) }),
        },
        on: {
          SPEC_RESTORED: [
            { guard: ({ context, event }) => mine({ context, event }) && lanesProtect(context), target: 'restoringProtected' },
            { guard: mine, target: 'admitting' },
          ],
        },
      }),
      // Call admission before every lane agent call, across lanes (DESIGN §10): the run's budgets
      // are shared, so a lane over a ceiling waits here; the run pauses once nothing else is in flight.
      admitting: S({
        always: [
          // a run journaled before lanes were gated goes straight to work, as it did
          { guard: ({ context }) => context.laneGates !== true, target: 'working' },
          {
            guard: { type: 'overBudget', params: { attempt: true } },
            target: 'held',
            actions: assign({ blockedOn: ({ context }) => budgetBreached(context, true) }),
          },
          { guard: ({ context }) => injectsContext(context), target: 'readingContext', actions: assign(admitted) },
          { target: 'working', actions: assign(admitted) },
        ],
      }),
      // DESIGN §9: the lane's prompt opens with the "Project context" block, read in its worktree
      readingContext: S({
        entry: { type: 'request', params: ({ context }) => request('context.read', { lane: lane(context).story, budget: context.config.contextBudget ?? DEFAULT_CONTEXT_BUDGET }) },
        on: {
          CONTEXT_READ: {
            guard: mine,
            target: 'working',
            actions: assign(({ context, event }) => updateSlot(context, i, { contextBlock: event.result.block, contextGuard: event.result.guard })),
          },
          ...restart,
        },
      }),
      // Not final: `yoke budget` journals BUDGET_RAISED, and the lane is admitted again.
      held: S({
        tags: ['paused'],
        on: { BUDGET_RAISED: { target: 'admitting', actions: 'raiseBudget' } },
      }),
      working: S({
        entry: {
          type: 'request',
          params: ({ context }) => {
            const slot = lane(context);
            const story = storyOf(context, slot.story);
            return request('agent.spawn', {
              role: 'worker',
              iteration: slot.iteration,
              story: slot.story,
              lane: slot.story,
              ...laneWorker(context, slot.story),
              prompt: withContextBlock(slot.contextBlock ?? '', renderTemplate(context.workerPrompt, {
                iteration: slot.iteration, maxIterations: context.maxIterations, loopDir: laneLoopDir(context, slot.story), planFile: 'prd.yaml',
                attempt: slot.iteration, maxAttempts: context.maxIterations,
                ...(context.prd ? storyPromptValues(context.prd, story) : {}),
              })) + (lanesProtect(context) ? protectionNote(context.protection, 'worker') : ''),
              ...callLimits(context.config, slot.resumeSession),
              ...(slot.contextGuard == null ? {} : { protect: slot.contextGuard }),
            });
          },
        },
        on: {
          AGENT_EXITED: [
            // A rate limit: the lane waits (journaled, resumable) and calls again for the same turn; the
            // streak is the run's (the lanes share the API), the wait the lane's. No turn or attempt is spent.
            {
              guard: ({ context, event }) => mine({ context, event }) && setbackOf(context, event) === 'rate-limited',
              target: 'rateLimited',
              actions: assign(({ context, event }) => {
                const noted = noteRateLimit(context, event.result, 'worker');
                return { rateLimits: noted.rateLimits, spent: noted.spent, ...updateSlot(context, i, { waitUntil: noted.waitUntil ?? null }) };
              }),
            },
            // The agent cannot authenticate: the lane holds (the others go on) until `yoke run` retries it.
            {
              guard: ({ context, event }) => mine({ context, event }) && setbackOf(context, event) === 'auth-error',
              target: 'agentHold',
              actions: assign(({ context, event }) => {
                const held = holdForAgent(context, event.result, 'worker');
                return { ...held, holdDetail: `story ${lane(context).story}: ${held.holdDetail ?? ''}` };
              }),
            },
            // A tool call held for the operator, or tool calls that went around the gate (DESIGN §13): the
            // lane holds (the others go on) until `yoke run` goes on after the answer; Claude's session resumes.
            {
              guard: ({ context, event }) => mine({ context, event }) && setbackOf(context, event) === 'tool-held',
              target: 'agentHold',
              actions: assign(({ context, event }) => {
                const { resumeSession, ...held } = holdForTool(context, event.result, 'worker');
                return { ...held, holdDetail: `story ${lane(context).story}: ${held.holdDetail ?? ''}`, ...updateSlot(context, i, { resumeSession: resumeSession ?? null }) };
              }),
            },
            {
              guard: ({ context, event }) => mine({ context, event }) && setbackOf(context, event) === 'tool-ungated',
              target: 'agentHold',
              actions: assign(({ context, event }) => {
                const held = holdForUngated(context, event.result, 'worker');
                return { ...held, holdDetail: `story ${lane(context).story}: ${held.holdDetail ?? ''}` };
              }),
            },
            // spec 1.1 in the lane: in runs that restore after calls, the worker's edit of a spec file never reaches the candidate
            { guard: ({ context, event }) => mine({ context, event }) && restoresAfterCalls(context), target: 'restoringAfterWorker', actions: assign(workerDone) },
            { guard: mine, target: 'readingNotes', actions: assign(workerDone) },
          ],
          // Cut short by a crash or a signal: restore the spec and call the worker again for the same turn.
          AGENT_INTERRUPTED: { guard: mine, target: 'restoring', actions: assign(({ context }) => ({ interruptions: context.interruptions + 1 })) },
        },
      }),
      rateLimited: S({
        entry: {
          type: 'request',
          params: ({ context }) => {
            const slot = lane(context);
            return request('wait.until', { lane: slot.story, until: slot.waitUntil ?? 0, reason: `rate limit on story ${slot.story}'s worker call (${context.rateLimits} in a row)` });
          },
        },
        on: { WAITED: { guard: mine, target: 'restoring', actions: assign(({ context }) => updateSlot(context, i, { waitUntil: null })) } },
      }),
      // Not final: `yoke run` journals AGENT_RETRY (the user fixed the credentials), and every held lane calls again.
      agentHold: S({
        tags: ['paused'],
        on: { AGENT_RETRY: { target: 'restoring', actions: assign({ heldFor: null, holdDetail: null }) } },
      }),
      restoringAfterWorker: S({
        entry: { type: 'request', params: ({ context }) => request('spec.restore', { lane: lane(context).story, specFiles: heldSpecFiles(context) }) },
        on: { SPEC_RESTORED: { guard: mine, target: 'readingNotes' } },
      }),
      readingNotes: S({
        entry: { type: 'request', params: ({ context }) => request('notes.read', { lane: lane(context).story, file: 'notes.md' }) },
        on: { NOTES_READ: { guard: mine, target: 'scanning', actions: assign(({ context, event }) => updateSlot(context, i, { notesFirstLine: event.result.firstLine })) }, ...restart },
      }),
      scanning: S({
        entry: { type: 'request', params: ({ context }) => request('boundary.scan', { lane: lane(context).story, baseline: lane(context).baseTree ?? '' }) },
        on: {
          BOUNDARY_SCANNED: [
            // DESIGN §16: with protected files, look at them too before any check runs.
            { guard: ({ context, event }) => mine({ context, event }) && lanesProtect(context), target: 'protecting', actions: assign(scanned) },
            { guard: mine, target: 'routingChecks', actions: assign(scanned) },
          ],
          ...restart,
        },
      }),
      ...protection,
      routingChecks: S({
        always: [
          // spec 1.4: a boundary violation skips every guard
          { guard: ({ context }) => lane(context).violations.length > 0 || lane(context).plan.length === 0, target: 'reporting' },
          { target: 'checking' },
        ],
      }),
      checking: S({
        entry: {
          type: 'request',
          params: ({ context }) => {
            const slot = lane(context);
            const check = slot.plan[slot.checks.length];
            if (!check) throw new Error('a lane entered checking with no check left to run');
            return request('check.run', { lane: slot.story, kind: check.kind, name: check.name, command: check.command, iteration: slot.iteration, timeoutMs: context.config.guardTimeoutMs, ...redactNames(context.config) });
          },
        },
        on: {
          CHECK_FINISHED: [
            {
              guard: ({ context, event }) => mine({ context, event }) && lane(context).checks.length + 1 < lane(context).plan.length,
              target: 'checking',
              reenter: true,
              actions: assign(({ context, event }) => updateSlot(context, i, { checks: [...lane(context).checks, outcome(lane(context), event.result)] })),
            },
            { guard: mine, target: 'reporting', actions: assign(({ context, event }) => updateSlot(context, i, { checks: [...lane(context).checks, outcome(lane(context), event.result)] })) },
          ],
          ...restart,
        },
      }),
      reporting: S({
        entry: { type: 'request', params: ({ context }) => request('file.write', { lane: lane(context).story, file: 'guard-results.md', content: laneReport(context, lane(context)) }) },
        // escalate (runs that route lanes per story): a turn that failed its gates moves its story's next call up a tier
        on: { FILE_WRITTEN: { guard: mine, target: 'deciding', actions: assign(({ context }) => laneTurnGated(context, lane(context))) }, ...restart },
      }),
      deciding: S({
        always: [
          { guard: ({ context }) => turnPassed(lane(context)), target: 'notingDecision' },
          { target: 'failed', actions: assign(({ context }) => noteLaneFailure(context, lane(context))) },
        ],
      }),
      failed: S({
        always: [
          { guard: ({ context }) => blockedStory(context, lane(context).story) || parallelOf(context).turns >= context.maxIterations, target: 'parking' },
          { target: 'restoring', actions: assign(({ context }) => nextTurn(context)) },
        ],
      }),
      notingDecision: S({
        entry: { type: 'request', params: ({ context }) => request('file.read', { lane: lane(context).story, file: 'notes.md' }) },
        on: { FILE_READ: { guard: mine, target: 'committing', actions: assign(({ context, event }) => updateSlot(context, i, { decisionNotes: event.result.content })) }, ...restart },
      }),
      committing: S({
        entry: {
          type: 'request',
          params: ({ context }) => {
            const slot = lane(context);
            return request('candidate.commit', { lane: slot.story, story: slot.story, base: slot.base ?? '', message: `feat(${slot.story}): ${storyOf(context, slot.story).title}` });
          },
        },
        on: {
          CANDIDATE_COMMITTED: {
            guard: mine,
            target: 'queued',
            actions: assign(({ context, event }) => updateSlot(context, i, { candidate: event.result.sha }, { queue: [...parallelOf(context).queue, i] })),
          },
          ...restart,
        },
      }),
      // Waiting for the serial integration lane's verdict on the candidate.
      queued: S({
        always: [
          { guard: ({ context }) => lane(context).outcome?.kind === 'landed', target: 'removing' },
          // A rejected candidate counts as one attempt. The story goes back to the scheduler, which
          // applies the file-overlap rule to its next attempt too (runs with `laneRequeue`).
          {
            guard: ({ context }) => lane(context).outcome?.kind === 'rejected'
              && (context.laneRequeue === true || blockedStory(context, lane(context).story) || parallelOf(context).turns >= context.maxIterations),
            target: 'parking',
          },
          {
            // Runs journaled before `laneRequeue`: a fresh attempt starts at once against the new target.
            guard: ({ context }) => lane(context).outcome?.kind === 'rejected',
            target: 'creating',
            actions: assign(({ context }) => {
              const slot = lane(context);
              const turns = parallelOf(context).turns + 1;
              const attempt = (context.prd?.progress[slot.story]?.attempts ?? 0) + 1;
              return { iteration: turns, ...withSlot(context, i, freshLane(slot.story, `${slot.story} again after its candidate was rejected`, attempt, turns), { turns }) };
            }),
          },
        ],
      }),
      removing: S({
        entry: {
          type: 'request',
          params: ({ context }) => {
            const slot = lane(context);
            const landed = slot.outcome?.kind === 'landed' ? slot.outcome.sha : '';
            return request('worktree.remove', { lane: slot.story, story: slot.story, branch: laneBranch(context.run ?? '', slot.story), landed, target: parallelOf(context).target.branch });
          },
        },
        on: { WORKTREE_REMOVED: { guard: mine, target: 'idle', actions: assign(({ context }) => withSlot(context, i, null)) } },
      }),
      // Blocked, or out of iterations: the lane frees up; the worktree stays (its work never landed).
      parking: S({ always: { target: 'idle', actions: assign(({ context }) => withSlot(context, i, null)) } }),
    },
  };
}

function outcome(slot: LaneSlot, result: CheckOutcome['result']): CheckOutcome {
  const planned = slot.plan[slot.checks.length];
  if (!planned) throw new Error('a lane check finished that was never planned');
  return { ...planned, result };
}
