// Record ids stay random: every ulid character equally likely, in [0, 1), across pool refills.
import { describe, expect, it } from 'vitest';
import { bufferedRandom } from '../../../store/journal/buffered-random.js';

describe('bufferedRandom', () => {
  it('gives floats in [0, 1) that spread over all 32 ulid characters, across refills', () => {
    const random = bufferedRandom();
    const counts = new Array<number>(32).fill(0);
    for (let i = 0; i < 32 * 1000; i += 1) {
      const value = random();
      expect(value >= 0 && value < 1).toBe(true);
      counts[Math.floor(value * 32)] = (counts[Math.floor(value * 32)] ?? 0) + 1;
    }
    // 1000 expected per character; a fair source stays far inside these bounds
    expect(Math.min(...counts)).toBeGreaterThan(800);
    expect(Math.max(...counts)).toBeLessThan(1200);
  });
});
