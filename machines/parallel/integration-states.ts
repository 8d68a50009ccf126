// The serial integration lane of the parallel stories coordinator (DESIGN §10): one candidate at a time
// is rebased onto the target, every guard and check runs again on the integrated tree, and only then
// does the target move (passes: true and the decision entry in the story's one commit). A conflict, a
// change to a protected file (DESIGN §16) or a failing gate journals `candidate.reject {story, files,
// gate, output}` (DESIGN §10's `candidate.rejected`) and the story's next attempt gets the rejection
// as its feedback. No AI conflict resolution.
import { assign } from 'xstate';
import { decisionEntry } from '../context/decision-entry.js';
import { request } from '../effects.js';
import { patternsCover } from '../protect/protect-pattern.js';
import { updateProgress } from '../stories/story-progress.js';
import { checkPassed, gatesDone, type CheckOutcome } from '../work/guard-report.js';
import type { WorkContext } from '../work/work-context.js';
import { workSetup } from '../work/work-setup.js';
import { eventOfLane, laneAt, parallelOf, storyGates, storyOf, updateSlot } from './lane-context.js';
import { lanesProtect } from './lane-protect-states.js';
import { laneRejected } from './lane-route.js';
import type { Integration } from './parallel-state.js';

/** `max-story-attempts` when yoke.conf has none (as in serial stories mode). */
const DEFAULT_MAX_STORY_ATTEMPTS = 3;

function integrationOf(context: WorkContext): Integration {
  const integration = parallelOf(context).integration;
  if (integration === null) throw new Error('the integration lane has no candidate');
  return integration;
}

function withIntegration(context: WorkContext, change: Partial<Integration> | null): Partial<WorkContext> {
  const parallel = parallelOf(context);
  return { parallel: { ...parallel, integration: change === null ? null : { ...integrationOf(context), ...change } } };
}

/** The rejection as the story's feedback for its next attempt. */
function rejectionFeedback(rejection: NonNullable<Integration['rejection']>): string {
  const files = rejection.files.length > 0 ? `\nFiles: ${rejection.files.join(', ')}\n` : '\n';
  return `# Integration rejected your candidate\n\nGate: ${rejection.gate}${files}\nIt was rebased onto the target as it is now (other stories landed meanwhile); work against that.\n\n\`\`\`\n${rejection.output.trimEnd()}\n\`\`\`\n`;
}

/** The protected files (DESIGN §16) a rebased candidate changes on the target: none unless the run's lanes keep protected files. */
export function protectedChanges(context: WorkContext, changed: readonly string[] | undefined): string[] {
  if (!lanesProtect(context)) return [];
  const patterns = context.protection?.patterns ?? [];
  return (changed ?? []).filter((path) => patternsCover(patterns, path));
}

/** What a rejection for changing protected files says (its `output`, and so the story's feedback). */
function protectedOutput(files: readonly string[]): string {
  return `the candidate changes protected files (acceptance infrastructure): ${files.join(', ')}; yoke never lands such a change. Make the code pass the checks as they are, and leave these files alone.`;
}

/** The integration region's states. */
export function integrationStates() {
  const S = workSetup.createStateConfig;
  const mine = ({ context, event }: { context: WorkContext; event: { lane?: string } }) => eventOfLane(event, parallelOf(context).integration?.story);
  const addCheck = (context: WorkContext, result: CheckOutcome['result']): CheckOutcome[] => {
    const integration = integrationOf(context);
    const planned = integration.plan[integration.checks.length];
    if (!planned) throw new Error('an integration check finished that was never planned');
    return [...integration.checks, { ...planned, result }];
  };
  return {
    initial: 'idle',
    states: {
      idle: S({
        always: {
          guard: ({ context }) => parallelOf(context).queue.length > 0,
          target: 'rebasing',
          actions: assign(({ context }) => {
            const parallel = parallelOf(context);
            const [slot = 0, ...rest] = parallel.queue;
            const story = laneAt(context, slot).story;
            return { parallel: { ...parallel, queue: rest, integration: { slot, story, rebased: null, plan: [], checks: [], now: null, rejection: null } } };
          }),
        },
      }),
      rebasing: S({
        entry: {
          type: 'request',
          params: ({ context }) => {
            const integration = integrationOf(context);
            return request('candidate.rebase', { lane: integration.story, story: integration.story, onto: parallelOf(context).target.branch, candidate: laneAt(context, integration.slot).candidate ?? '' });
          },
        },
        on: {
          CANDIDATE_REBASED: [
            {
              guard: ({ context, event }) => mine({ context, event }) && !event.result.ok,
              target: 'rejecting',
              actions: assign(({ context, event }) => withIntegration(context, { rejection: { files: event.result.files, gate: 'rebase', output: event.result.output } })),
            },
            // DESIGN §16: a candidate that changes a protected file never lands, whatever its gates say.
            {
              guard: ({ context, event }) => mine({ context, event }) && protectedChanges(context, event.result.changed).length > 0,
              target: 'rejecting',
              actions: assign(({ context, event }) => {
                const files = protectedChanges(context, event.result.changed);
                return withIntegration(context, { rebased: event.result.sha, rejection: { files, gate: 'protect', output: protectedOutput(files) } });
              }),
            },
            {
              guard: mine,
              target: 'routingChecks',
              actions: assign(({ context, event }) => {
                const integration = integrationOf(context);
                return withIntegration(context, { rebased: event.result.sha, plan: storyGates(context, storyOf(context, integration.story), laneAt(context, integration.slot).iteration), checks: [] });
              }),
            },
          ],
        },
      }),
      routingChecks: S({
        always: [
          { guard: ({ context }) => integrationOf(context).plan.length === 0, target: 'clock' },
          { target: 'checking' },
        ],
      }),
      // Every guard and check again, on the integrated tree.
      checking: S({
        entry: {
          type: 'request',
          params: ({ context }) => {
            const integration = integrationOf(context);
            const check = integration.plan[integration.checks.length];
            if (!check) throw new Error('integration entered checking with no check left to run');
            return request('check.run', { lane: integration.story, kind: check.kind, name: check.name, command: check.command, iteration: laneAt(context, integration.slot).iteration, timeoutMs: context.config.guardTimeoutMs });
          },
        },
        on: {
          CHECK_FINISHED: [
            {
              guard: ({ context, event }) => {
                if (!mine({ context, event })) return false;
                const last = addCheck(context, event.result).at(-1);
                return last !== undefined && gatesDone(last) && !checkPassed(last);
              },
              target: 'rejecting',
              actions: assign(({ context, event }) => {
                const checks = addCheck(context, event.result);
                const failed = checks.at(-1);
                return withIntegration(context, { checks, rejection: { files: laneAt(context, integrationOf(context).slot).changed, gate: failed?.name ?? '?', output: failed?.result.excerpt ?? '' } });
              }),
            },
            {
              guard: ({ context, event }) => mine({ context, event }) && integrationOf(context).checks.length + 1 < integrationOf(context).plan.length,
              target: 'checking',
              reenter: true,
              actions: assign(({ context, event }) => withIntegration(context, { checks: addCheck(context, event.result) })),
            },
            { guard: mine, target: 'clock', actions: assign(({ context, event }) => withIntegration(context, { checks: addCheck(context, event.result) })) },
          ],
        },
      }),
      // The decision entry's date is the journaled clock.
      clock: S({
        entry: { type: 'request', params: ({ context }) => request('clock.read', { lane: integrationOf(context).story, purpose: `the date of story ${integrationOf(context).story}'s decision entry` }) },
        on: { CLOCK_READ: { guard: mine, target: 'landing', actions: assign(({ context, event }) => withIntegration(context, { now: event.result.now })) } },
      }),
      landing: S({
        entry: {
          type: 'request',
          params: ({ context }) => {
            const integration = integrationOf(context);
            const story = storyOf(context, integration.story);
            const slot = laneAt(context, integration.slot);
            const target = parallelOf(context).target;
            return request('story.land', {
              lane: story.id, story: story.id, candidate: integration.rebased ?? '', target: target.branch, from: target.sha,
              decision: decisionEntry({ now: integration.now ?? 0, id: story.id, title: story.title, notes: slot.decisionNotes }),
            });
          },
        },
        on: {
          STORY_LANDED: {
            guard: mine,
            target: 'idle',
            actions: assign(({ context, event }) => {
              const integration = integrationOf(context);
              const parallel = parallelOf(context);
              const landed = updateSlot(context, integration.slot, { outcome: { kind: 'landed', sha: event.result.sha } }, { integration: null, target: { ...parallel.target, sha: event.result.sha } });
              return {
                ...landed,
                prd: context.prd ? updateProgress(context.prd, integration.story, { passed: true, commit: event.result.sha, feedback: null }) : context.prd,
                lastCommit: event.result.sha,
                chunkSpecFiles: { ...context.chunkSpecFiles, 'prd.yaml': event.result.prdBlob },
              };
            }),
          },
        },
      }),
      rejecting: S({
        entry: {
          type: 'request',
          params: ({ context }) => {
            const integration = integrationOf(context);
            const slot = laneAt(context, integration.slot);
            const rejection = integration.rejection ?? { files: [], gate: '?', output: '' };
            return request('candidate.reject', { lane: integration.story, story: integration.story, attempt: slot.attempt, candidate: slot.candidate ?? '', ...rejection });
          },
        },
        on: {
          CANDIDATE_REJECTED: {
            guard: mine,
            target: 'idle',
            actions: assign(({ context }) => {
              const integration = integrationOf(context);
              const rejection = integration.rejection ?? { files: [], gate: '?', output: '' };
              const progress = context.prd?.progress[integration.story];
              const attempts = (progress?.attempts ?? 0) + 1;
              const max = context.config.maxStoryAttempts ?? DEFAULT_MAX_STORY_ATTEMPTS;
              const prd = context.prd ? updateProgress(context.prd, integration.story, { attempts, blocked: attempts >= max ? 'attempts' : null, feedback: rejectionFeedback(rejection) }) : context.prd;
              // escalate (runs that route lanes per story): a gate failing on the integrated tree climbs the story, a conflict does not
              const route = laneRejected(context, integration.story, laneAt(context, integration.slot), rejection);
              return { ...route, ...updateSlot(context, integration.slot, { outcome: { kind: 'rejected' } }, { integration: null }), prd };
            }),
          },
        },
      }),
    },
  };
}
