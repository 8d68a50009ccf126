// Stories mode's acceptance criteria (DESIGN §8, §12): each story's `check`, named `<id>#<n>` as the
// run names it, a `journey:<name>` check running that declared journey.
import type { Story } from '../../config/prd/story.js';
import type { Config, ConfigIssue } from '../../config/types.js';
import type { CheckCriterion } from './acceptance-check.js';

/** The prefix of a story check that names a journey instead of a command. */
export const JOURNEY_CHECK = 'journey:';

/** The journey a story's `check` names (`journey:smoke` → `smoke`), or null for a command. */
export function journeyCheck(check: string | undefined): string | null {
  const trimmed = check?.trim() ?? '';
  return trimmed.startsWith(JOURNEY_CHECK) ? trimmed.slice(JOURNEY_CHECK.length).trim() : null;
}

/**
 * One story's executable criteria, in its order: a command, or the declared journey a
 * `journey:<name>` check names (run under the criterion's name, sharing that journey's run); and an
 * issue for each `journey:` check naming a journey the config does not declare.
 * @example criteriaOfStory(config, story).criteria.map((criterion) => criterion.name) // ['S1#2', 'S1#3']
 */
export function criteriaOfStory(config: Config, story: Story, file = '.loop/prd.yaml'): { criteria: CheckCriterion[]; issues: ConfigIssue[] } {
  const criteria: CheckCriterion[] = [];
  const issues: ConfigIssue[] = [];
  (story.acceptance ?? []).forEach((criterion, index) => {
    const check = criterion.check?.trim();
    if (check === undefined || check === '') return;
    const name = `${story.id}#${index + 1}`;
    const journeyName = journeyCheck(check);
    if (journeyName === null) {
      criteria.push({ kind: 'command', name, command: check, timeoutMs: config.guardTimeoutMs });
      return;
    }
    const journey = (config.journeys ?? []).find((entry) => entry.name === journeyName);
    if (journey) criteria.push({ kind: 'journey', name, flow: journey.flow, journey: journey.name });
    else issues.push({ file, line: story.line, column: 1, severity: 'error', message: `story ${story.id}'s criterion ${index + 1} checks \`${check}\`, but yoke.conf declares no journey \`${journeyName}\``, hint: `declare it with \`journey ${journeyName || '<name>'} <flow.yaml>\` in .loop/yoke.conf` });
  });
  return { criteria, issues };
}

/**
 * Every executable criterion of `stories`, in prd.yaml's order, and an issue for each `journey:`
 * check naming a journey the config does not declare.
 * @example storyCriteria(config, stories).criteria.map((criterion) => criterion.name) // ['S1#2', 'S3#1']
 */
export function storyCriteria(config: Config, stories: readonly Story[], file = '.loop/prd.yaml'): { criteria: CheckCriterion[]; issues: ConfigIssue[] } {
  const each = stories.map((story) => criteriaOfStory(config, story, file));
  return { criteria: each.flatMap((story) => story.criteria), issues: each.flatMap((story) => story.issues) };
}

/**
 * What `yoke run` and `yoke config check` refuse in prd.yaml's checks: a `journey:` check naming an
 * undeclared journey, and (with `parallel`) any `journey:` check, which parallel lanes cannot run yet.
 */
export function storyCheckIssues(config: Config, stories: readonly Story[], file = '.loop/prd.yaml'): ConfigIssue[] {
  const { issues } = storyCriteria(config, stories, file);
  if (config.parallel === undefined) return issues;
  for (const story of stories) {
    (story.acceptance ?? []).forEach((criterion, index) => {
      const journey = journeyCheck(criterion.check);
      if (journey === null || !(config.journeys ?? []).some((entry) => entry.name === journey)) return;
      issues.push({
        file, line: story.line, column: 1, severity: 'error',
        message: `story ${story.id}'s criterion ${index + 1} checks \`journey:${journey}\`, but parallel lanes cannot run journeys yet`,
        hint: 'run the stories one at a time (drop --parallel and `parallel`), or check this criterion with a command',
      });
    });
  }
  return issues;
}
