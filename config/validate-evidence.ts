// The whole-file checks of the delivery-evidence directives (DESIGN §12): a journey needs a
// `base-url`, journeys and accepts share one criterion namespace, and an artifact may name only
// declared criteria.
import { withSuggestion } from './closest-match.js';
import type { ConfigDraft } from './config-draft.js';
import type { IssueCollector } from './issue-collector.js';

/** Adds the evidence issues of a fully read draft. */
export function validateEvidence(draft: ConfigDraft, issues: IssueCollector): void {
  const [firstJourney] = draft.journeys;
  if (firstJourney !== undefined && draft.scalars.baseUrl === undefined && !draft.firstLines.has('base-url')) {
    issues.error(firstJourney.line, 1, 'a `journey` needs a `base-url`', 'add a line like `base-url http://127.0.0.1:3000`, where the application under test answers');
  }
  for (const journey of draft.journeys) {
    const accept = draft.accepts.find((entry) => entry.name === journey.name);
    if (accept === undefined) continue;
    issues.error(journey.line, journey.column, `criterion name \`${journey.name}\` is already used by \`accept\` on line ${accept.line}`, 'a journey is a criterion by its name: give it a name of its own');
  }
  const criteria = [...draft.accepts.map((entry) => entry.name), ...draft.journeys.map((entry) => entry.name)];
  for (const artifact of draft.artifacts) {
    for (const criterion of artifact.criteria) {
      if (criteria.includes(criterion.value)) continue;
      const hint = criteria.length === 0
        ? 'declare it with `accept <name> <command>` or `journey <name> <flow.yaml>`'
        : withSuggestion(`name an \`accept\` or \`journey\` (declared: ${criteria.join(', ')})`, criterion.value, criteria);
      issues.error(criterion.line, criterion.column, `\`artifact\` names criterion \`${criterion.value}\`, which is not declared`, hint);
    }
  }
}
