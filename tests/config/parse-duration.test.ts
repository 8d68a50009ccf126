import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../config/parse-duration.js';

describe('parseDuration', () => {
  it.each([
    ['90s', 90_000], ['20m', 1_200_000], ['2h', 7_200_000], ['1h30m', 5_400_000], ['1m30s', 90_000], ['0', 0], ['0s', 0],
  ])('%s = %i ms', (text, ms) => {
    expect(parseDuration(text)).toEqual({ ok: true, value: ms });
  });
  it.each(['90', '1.5h', '20x', '10ms', '-5m', 's', 'h1', '1d', '2h 3m', '30s1m', ''])('rejects %j', (text) => {
    expect(parseDuration(text).ok).toBe(false);
  });
  it('tells a bare number to add a unit', () => {
    expect(parseDuration('90')).toMatchObject({ ok: false, hint: 'add a unit, like 90s, 90m or 90h' });
  });
});
