// A story's executable criteria as its iteration runs them (DESIGN §8, §12): its `check` commands as
// `check.run`s after the guards, then (runs that record `storyJourneys`) its `journey:<name>` checks
// as one `acceptance.check` through the engine `yoke check` uses.
import { storyChecks } from '../../config/prd/story.js';
import { DEFAULT_CHECK_LABEL, type AcceptanceCheckParams, type CheckCriterion } from '../acceptance/acceptance-check.js';
import { criteriaOfStory } from '../acceptance/story-criteria.js';
import { redactNames } from '../redact-names.js';
import { inRun } from '../work/goal-acceptance.js';
import type { PlannedCheck } from '../work/guard-report.js';
import type { WorkContext } from '../work/work-context.js';
import { currentStory } from './story-progress.js';

/**
 * The current story's journey checks that run as journeys. Runs journaled without `storyJourneys`
 * ran them as shell commands, and fold so. A `journey:` check naming a journey the run's config
 * does not declare stays a command (and fails): `yoke run` refuses such a prd.yaml before it starts
 * or resumes a run, so only a journal written otherwise has one.
 */
function storyJourneys(context: WorkContext): CheckCriterion[] {
  const story = context.storyJourneys === true ? currentStory(context.prd) : null;
  return story === null ? [] : criteriaOfStory(context.config, story).criteria.filter((criterion) => criterion.kind === 'journey');
}

/** The current story's `check` commands, run after the guards, named `<id>#<n>` (its journeys are not among them). */
export function storyCommandChecks(context: WorkContext): PlannedCheck[] {
  const story = currentStory(context.prd);
  if (story === null) return [];
  const journeys = new Set(storyJourneys(context).map((criterion) => criterion.name));
  return storyChecks(story)
    .map((criterion) => ({ kind: 'accept' as const, name: `${story.id}#${(story.acceptance ?? []).indexOf(criterion) + 1}`, command: criterion.check ?? '' }))
    .filter((check) => !journeys.has(check.name));
}

/**
 * The current story's journeys as one acceptance check under the run id's label, or null when it
 * has none. Only journeys: the story's commands are its `check.run`s, and artifact bindings (which
 * name the config's criteria) are `yoke check`'s to prove.
 */
export function storyJourneyCheck(context: WorkContext): AcceptanceCheckParams | null {
  const criteria = storyJourneys(context);
  if (criteria.length === 0) return null;
  const params: AcceptanceCheckParams = {
    label: context.run ?? DEFAULT_CHECK_LABEL, criteria, artifacts: [], baseUrl: context.config.baseUrl ?? null, ...redactNames(context.config),
  };
  return inRun(params, context);
}
