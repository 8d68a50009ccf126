// The rungs `routing escalate` climbs (DESIGN §15): one profile per tier, cheapest tier first, none
// above `max-tier`. A tier's first profile in file order is its rung; the others never run under
// escalate (`yoke config check` says so).
import { TIERS, type Profile, type Tier } from './types.js';

/** The ladder: the first profile of each tier up to `maxTier`, cheapest tier first. */
export function tierLadder(profiles: readonly Profile[], maxTier: Tier | undefined): Profile[] {
  const cap = maxTier === undefined ? TIERS.length - 1 : TIERS.indexOf(maxTier);
  return TIERS.slice(0, cap + 1).flatMap((tier) => profiles.find((profile) => profile.tier === tier) ?? []);
}
