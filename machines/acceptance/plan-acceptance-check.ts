// Which criteria an acceptance check runs and what it binds, decided purely from the config.
import type { Config } from '../../config/types.js';
import type { AcceptanceCheckParams, CheckCriterion } from './acceptance-check.js';
import { redactNames } from '../redact-names.js';

/**
 * The acceptance criteria a config declares, in the order they run: every `accept` command, then
 * every `journey` (a journey is a criterion by its name). Stories mode (DESIGN §8) adds its
 * stories' checks through `planAcceptanceCheck`'s `extra` (see story-criteria.ts).
 */
export function acceptanceCriteria(config: Config): CheckCriterion[] {
  const commands = config.accepts.map((accept): CheckCriterion => ({ kind: 'command', name: accept.name, command: accept.command, timeoutMs: config.guardTimeoutMs }));
  const journeys = (config.journeys ?? []).map((journey): CheckCriterion => ({ kind: 'journey', name: journey.name, flow: journey.flow }));
  return [...commands, ...journeys];
}

/**
 * The check's parameters, or null when there is no criterion (nothing to prove). `extra` criteria
 * (stories' checks) run after the `accept` commands and before the declared journeys.
 * @example planAcceptanceCheck(config, 'latest')?.criteria.map((criterion) => criterion.name)
 */
export function planAcceptanceCheck(config: Config, label: string, extra: readonly CheckCriterion[] = []): AcceptanceCheckParams | null {
  const declared = acceptanceCriteria(config);
  const commands = declared.filter((criterion) => criterion.kind === 'command');
  const criteria = [...commands, ...extra, ...declared.slice(commands.length)];
  if (criteria.length === 0) return null;
  const hasJourney = criteria.some((criterion) => criterion.kind === 'journey');
  return {
    label,
    criteria,
    artifacts: (config.artifacts ?? []).map((artifact) => ({ path: artifact.path, criteria: artifact.criteria })),
    baseUrl: hasJourney ? config.baseUrl ?? null : null,
    ...redactNames(config),
  };
}
