// Which profile the worker's next attempt uses (DESIGN §15): the one `agent` names, the economic
// choice journaled at the run's start, or a rung of the escalation ladder (pure).
import { TIERS, type AgentSpec, type Config, type Profile, type Tier } from '../../config/types.js';

/** The profiles `escalate` climbs: cheapest tier first (file order within a tier), none above `max-tier`. */
export function escalationLadder(config: Pick<Config, 'profiles' | 'maxTier'>): Profile[] {
  const cap = config.maxTier === undefined ? TIERS.length - 1 : TIERS.indexOf(config.maxTier);
  const rank = (tier: Tier): number => TIERS.indexOf(tier);
  return (config.profiles ?? []).filter((profile) => rank(profile.tier) <= cap).sort((a, b) => rank(a.tier) - rank(b.tier));
}

/** The agent, model and profile name for one worker call. */
export interface WorkerChoice {
  agent: AgentSpec;
  model: string | null;
  /** absent when the config declares no profiles (journals stay as older yokes wrote them) */
  profile?: string;
}

/**
 * The worker's profile for an attempt. `step` counts the failed attempts of this sequence so far
 * (escalate climbs one rung per failure and never comes down); `start` is the economic choice.
 */
export function workerChoice(config: Config, step: number, start: string | null): WorkerChoice {
  const byName = (name: string | undefined): Profile | undefined => config.profiles?.find((profile) => profile.name === name);
  const asChoice = (profile: Profile): WorkerChoice => ({ agent: profile.agent, model: profile.model ?? config.model ?? null, profile: profile.name });
  if (config.routing?.kind === 'escalate') {
    const ladder = escalationLadder(config);
    const rung = ladder[Math.min(step, ladder.length - 1)];
    if (rung) return asChoice(rung);
  }
  const started = config.routing?.kind === 'economic' ? byName(start ?? undefined) : undefined;
  if (started) return asChoice(started);
  const named = byName(config.agentProfile);
  if (named) return { agent: config.agent, model: config.model ?? null, profile: named.name };
  return { agent: config.agent, model: config.model ?? null };
}
