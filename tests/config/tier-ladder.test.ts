// The rungs escalate climbs (config/tier-ladder.ts): one profile per tier, capped by max-tier.
import { describe, expect, it } from 'vitest';
import { tierLadder } from '../../config/tier-ladder.js';
import type { Profile } from '../../config/types.js';

const profile = (name: string, tier: Profile['tier'], line: number): Profile => ({ name, tier, agent: { kind: 'claude' }, line });

describe('tierLadder', () => {
  const profiles = [profile('big', 'frontier', 1), profile('fast', 'light', 2), profile('spare', 'light', 3), profile('deep', 'strong', 4)];

  it('is one profile per tier, cheapest tier first: a tier\'s first profile in file order, the others never', () => {
    expect(tierLadder(profiles, undefined).map((p) => p.name)).toEqual(['fast', 'deep', 'big']);
  });

  it('stops at max-tier, and is empty when every profile is above it', () => {
    expect(tierLadder(profiles, 'strong').map((p) => p.name)).toEqual(['fast', 'deep']);
    expect(tierLadder(profiles, 'standard').map((p) => p.name)).toEqual(['fast']);
    expect(tierLadder([profile('deep', 'strong', 1)], 'light')).toEqual([]);
  });
});
