import { describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../../effects/adapters/retry-after.js';

describe('retryAfterMs', () => {
  it.each([
    ['Please try again in 1.5s.', 1500],
    ['Please try again in 20 seconds', 20_000],
    ['try again in 2 minutes', 120_000],
    ['try again in 250ms', 250],
    ['Please retry in 34s.', 34_000],
    ['Retry-After: 7', 7000],
    ['retry after 20 seconds', 20_000],
    ['  retryDelayMs: 34000,', 34_000],
    ['"details":[{"retryDelay":"12s"}]', 12_000],
  ])('%s → %i ms', (text, ms) => {
    expect(retryAfterMs(text)).toBe(ms);
  });

  it('is null when no wait is named', () => {
    expect(retryAfterMs('rate limit exceeded')).toBeNull();
    expect(retryAfterMs('')).toBeNull();
  });
});
