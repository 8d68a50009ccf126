// Cross-line checks of the routing directives: `agent <profile>` names a declared profile,
// `routing escalate|economic` has profiles to choose among, and escalate's ladder can climb (DESIGN §15).
import { withSuggestion } from './closest-match.js';
import type { ConfigDraft } from './config-draft.js';
import type { IssueCollector } from './issue-collector.js';
import { tierLadder } from './tier-ladder.js';
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
  } else if (routing?.kind === 'escalate') warnLadder(draft, issues);
}

/**
 * Warnings for an escalate ladder that cannot do what the file seems to ask: escalate climbs one
 * tier per failure and runs each tier's first profile, so a second profile of a tier never runs,
 * and a ladder of one rung (every profile in one tier, or `max-tier` cutting the rest) never climbs.
 */
function warnLadder(draft: ConfigDraft, issues: IssueCollector): void {
  const maxTier = draft.scalars.maxTier;
  const ladder = tierLadder(draft.profiles, maxTier);
  for (const profile of draft.profiles) {
    const rung = ladder.find((candidate) => candidate.tier === profile.tier);
    if (rung === undefined || rung === profile) continue;
    issues.warning(profile.line, 1, `\`routing escalate\` never runs the profile \`${profile.name}\`: \`${rung.name}\` (line ${rung.line}) is the ${profile.tier} rung`, 'escalate moves one tier per failed attempt and runs the first profile of each tier; give this profile another tier, or remove it');
  }
  if (ladder.length > 1) return;
  const capLine = maxTier === undefined ? undefined : draft.firstLines.get('max-tier');
  const line = capLine ?? draft.firstLines.get('routing') ?? 1;
  const [only] = ladder;
  if (only === undefined) {
    issues.warning(line, 1, `\`max-tier ${maxTier ?? ''}\` leaves \`routing escalate\` no profile, so every attempt runs the \`agent\` line`, 'raise `max-tier`, or give a profile a lower tier');
    return;
  }
  const why = capLine === undefined ? `every profile is in the ${only.tier} tier` : `\`max-tier ${maxTier ?? ''}\` leaves no tier above ${only.tier}`;
  issues.warning(line, 1, `\`routing escalate\` can never escalate: ${why}, so every attempt runs ${only.name}`, capLine === undefined ? 'give a profile a higher tier, like `profile deep tier strong model opus claude`' : 'raise `max-tier`, or remove it');
}
