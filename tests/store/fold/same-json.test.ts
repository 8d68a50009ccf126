// store/fold/same-json.ts agrees with comparing canonical JSON text, on any values.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonical } from '../../../store/fold/run-fold.js';
import { sameJson } from '../../../store/fold/same-json.js';

/** The same object with its keys in reverse order, recursively. */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).reverse().map(([key, inner]) => [key, reordered(inner)]));
}

const leaf = fc.oneof(fc.constant(undefined), fc.constant(null), fc.constant(Number.NaN), fc.boolean(), fc.integer({ min: -3, max: 3 }), fc.constantFrom('', 'a', 'b'));
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('node'), { maxKeys: 3 })),
})).node;

describe('sameJson', () => {
  it('is true exactly when the canonical JSON texts are equal', () => {
    fc.assert(fc.property(value, value, (a, b) => {
      expect(sameJson(a, b, canonical)).toBe(canonical(a) === canonical(b));
    }), { numRuns: 2000 });
  });

  it('ignores key order and keys whose value is undefined', () => {
    fc.assert(fc.property(value, (a) => {
      expect(sameJson(a, reordered(a), canonical)).toBe(true);
    }));
    expect(sameJson({ a: 1, b: undefined }, { a: 1 }, canonical)).toBe(true);
    expect(sameJson([undefined], [null], canonical)).toBe(true);
    expect(sameJson({ a: 1 }, { a: '1' }, canonical)).toBe(false);
    expect(sameJson([1, 2], [2, 1], canonical)).toBe(false);
  });
});
