// Stories mode's acceptance criteria for `yoke check` (DESIGN §8, §12): each story's `check`, named
// `<id>#<n>` as the run names it, a `journey:<name>` check running that declared journey.
import type { Story } from '../../config/prd/story.js';
import type { Config, ConfigIssue } from '../../config/types.js';
import type { CheckCriterion } from './acceptance-check.js';

/** The prefix of a story check that names a journey instead of a command. */
export const JOURNEY_CHECK = 'journey:';

/**
 * Every executable criterion of `stories`, in prd.yaml's order, and an issue for each `journey:`
 * check naming a journey the config does not declare.
 * @example storyCriteria(config, stories).criteria.map((criterion) => criterion.name) // ['S1#2', 'S3#1']
 */
export function storyCriteria(config: Config, stories: readonly Story[], file = '.loop/prd.yaml'): { criteria: CheckCriterion[]; issues: ConfigIssue[] } {
  const criteria: CheckCriterion[] = [];
  const issues: ConfigIssue[] = [];
  for (const story of stories) {
    (story.acceptance ?? []).forEach((criterion, index) => {
      const check = criterion.check?.trim();
      if (check === undefined || check === '') return;
      const name = `${story.id}#${index + 1}`;
      if (!check.startsWith(JOURNEY_CHECK)) {
        criteria.push({ kind: 'command', name, command: check, timeoutMs: config.guardTimeoutMs });
        return;
      }
      const journeyName = check.slice(JOURNEY_CHECK.length).trim();
      const journey = (config.journeys ?? []).find((entry) => entry.name === journeyName);
      if (journey) criteria.push({ kind: 'journey', name, flow: journey.flow });
      else issues.push({ file, line: story.line, column: 1, severity: 'error', message: `story ${story.id}'s criterion ${index + 1} checks \`${check}\`, but yoke.conf declares no journey \`${journeyName}\``, hint: `declare it with \`journey ${journeyName || '<name>'} <flow.yaml>\` in .loop/yoke.conf` });
    });
  }
  return { criteria, issues };
}
