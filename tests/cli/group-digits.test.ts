// cli/group-digits.ts: the same text as toLocaleString('en-US'), without ICU for whole numbers.
import { describe, expect, it } from 'vitest';
import { groupDigits } from '../../cli/group-digits.js';

describe('groupDigits', () => {
  it("writes numbers exactly as toLocaleString('en-US') does", () => {
    for (const n of [0, 7, 999, 1000, 1200, 12345, 999999, 1000000, 1234567890, Number.MAX_SAFE_INTEGER, -1, -1000, -1234567, 1.5, 1234.5678, -0.25]) {
      expect(groupDigits(n), String(n)).toBe(n.toLocaleString('en-US'));
    }
  });
});
