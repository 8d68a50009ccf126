// The worker's profile for the next attempt of a sequence, for runs that route by sequence (DESIGN
// §15): escalate climbs one tier per failed attempt of the sequence, each profile runs with its own
// model, and every escalate call says why it runs where it does (journaled with the call).
import { tierLadder } from '../../config/tier-ladder.js';
import type { Config, Profile } from '../../config/types.js';
import type { WorkerChoice } from './escalation-ladder.js';
import type { SequenceRoute } from './sequence-route.js';

/** A worker choice, and (escalate) why the attempt runs on this rung. */
export interface RoutedWorker extends WorkerChoice {
  routeReason?: string;
}

/**
 * The model a profile runs with: its own `model`, or none (the CLI's default). The profile `agent`
 * names is the exception: there a `model` line wins, as it does without routing. Another profile's
 * model never leaks into it.
 */
export function profileModel(config: Pick<Config, 'agentProfile' | 'model'>, profile: Profile): string | null {
  return profile.name === config.agentProfile ? config.model ?? profile.model ?? null : profile.model ?? null;
}

function asChoice(config: Config, profile: Profile): WorkerChoice {
  return { agent: profile.agent, model: profileModel(config, profile), profile: profile.name };
}

/** Why an escalate attempt runs on `rung` of a ladder of `rungs`, from the sequence's route. */
function escalateReason(profile: Profile, rung: number, rungs: number, route: SequenceRoute): string {
  const where = `${profile.name} (${profile.tier})`;
  if (route.step === 0 || route.reason === null) return `escalate: ${where} is the first rung of ${rungs}`;
  if (rung < route.step) return `escalate: ${where} is the top rung, kept after ${route.reason}`;
  return `escalate: up to ${where}, rung ${rung + 1} of ${rungs}, after ${route.reason}`;
}

/**
 * The worker's agent, model and profile for the next attempt of a sequence at `route`; `start` is
 * the run's economic choice (journaled in its input).
 * @example routedWorker(config, { step: 1, reason: 'attempt 1 failed: accept shipped', lastCall: 'ok' }, null).profile // 'deep'
 */
export function routedWorker(config: Config, route: SequenceRoute, start: string | null): RoutedWorker {
  const profiles = config.profiles ?? [];
  if (config.routing?.kind === 'escalate') {
    const ladder = tierLadder(profiles, config.maxTier);
    const rung = Math.min(route.step, ladder.length - 1);
    const profile = ladder[rung];
    if (profile) return { ...asChoice(config, profile), routeReason: escalateReason(profile, rung, ladder.length, route) };
  }
  const started = config.routing?.kind === 'economic' ? profiles.find((profile) => profile.name === start) : undefined;
  if (started) return asChoice(config, started);
  const named = profiles.find((profile) => profile.name === config.agentProfile);
  if (named) return { agent: config.agent, model: config.model ?? null, profile: named.name };
  return { agent: config.agent, model: config.model ?? null };
}
