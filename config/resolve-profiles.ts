// Cross-line checks of the routing directives: `agent <profile>` names a declared profile, and
// `routing escalate|economic` has profiles to choose among (DESIGN §15).
import { withSuggestion } from './closest-match.js';
import type { ConfigDraft } from './config-draft.js';
import type { IssueCollector } from './issue-collector.js';
import { BUILT_IN_AGENT_KINDS } from './types.js';

const ROLE_KEYS = {
  agent: { model: 'model', profile: 'agentProfile', directive: 'agent' },
  judgeAgent: { model: 'judgeModel', profile: 'judgeProfile', directive: 'judge-agent' },
  scoperAgent: { model: 'scoperModel', profile: 'scoperProfile', directive: 'scoper-agent' },
} as const;

/** Resolve each role's profile name into its agent and model, and check what routing needs. */
export function resolveProfiles(draft: ConfigDraft, issues: IssueCollector): void {
  for (const key of ['agent', 'judgeAgent', 'scoperAgent'] as const) {
    const ref = draft.profileRefs[key];
    if (ref === undefined) continue;
    const profile = draft.profiles.find((candidate) => candidate.name === ref.value);
    const names = ROLE_KEYS[key];
    if (!profile) {
      const known = draft.profiles.map((candidate) => candidate.name);
      const hint = `use ${BUILT_IN_AGENT_KINDS.join(', ')}, \`${names.directive} cmd <command>\`, or a name declared by a \`profile\` line${known.length > 0 ? ` (${known.join(', ')})` : ''}`;
      issues.error(ref.line, ref.column, `\`${ref.value}\` is not a known agent or profile`, withSuggestion(hint, ref.value, [...BUILT_IN_AGENT_KINDS, 'cmd', ...known]));
      continue;
    }
    draft.scalars[key] ??= profile.agent;
    if (profile.model !== undefined) draft.scalars[names.model] ??= profile.model;
    draft.scalars[names.profile] = profile.name;
  }
  const routing = draft.scalars.routing;
  if (routing !== undefined && routing.kind !== 'fixed' && draft.profiles.length < 2) {
    const line = draft.firstLines.get('routing') ?? 1;
    issues.error(line, 1, `\`routing ${routing.kind}\` needs at least two \`profile\` lines to choose among, and this file has ${draft.profiles.length}`, 'declare the candidates, like `profile fast tier light model haiku claude` and `profile deep tier strong model opus claude`, or use `routing fixed`');
  }
}
