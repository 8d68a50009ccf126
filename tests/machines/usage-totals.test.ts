// machines/usage-totals.ts: the one way every surface adds up agent calls — unknown never becomes zero.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Usage } from '../../machines/effects.js';
import { addCall, callSpend, NO_USAGE, totalUsage, type CountedCall } from '../../machines/usage-totals.js';

const usage = (fields: Partial<Usage>): Usage => ({
  inputTokens: null, outputTokens: null, cacheReadTokens: null, cacheWriteTokens: null, costUsd: null, model: null, ...fields,
});

describe('usage totals', () => {
  it('a call counts its tokens only when both input and output are known, and its cost only when known', () => {
    expect(callSpend(usage({ inputTokens: 10, outputTokens: 5, costUsd: 0.25 }))).toEqual({ tokens: 15, costUsd: 0.25 });
    expect(callSpend(usage({ inputTokens: 10 }))).toEqual({ tokens: null, costUsd: null });
    expect(callSpend(null)).toEqual({ tokens: null, costUsd: null });
  });

  it('exact sums turn null once any call did not report a field; known sums and unknown counts go on', () => {
    const totals = totalUsage([
      { usage: usage({ inputTokens: 100, outputTokens: 20, costUsd: 1 }), durationMs: 10 },
      { usage: usage({ inputTokens: 50, outputTokens: null, costUsd: null }), durationMs: 5 },
      { usage: null, durationMs: null },
    ]);
    expect(totals).toEqual({
      calls: 3, unknownCalls: 1, inputTokens: null, outputTokens: null, cacheReadTokens: null, cacheWriteTokens: null, costUsd: null,
      knownTokens: 120, knownInputTokens: 100, knownOutputTokens: 20, knownCostUsd: 1, unknownTokenCalls: 2, unknownCostCalls: 2, durationMs: 15,
    });
  });

  it('adding calls in any grouping gives the same totals, and unknown cost is never counted as zero', () => {
    const field = fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: null });
    const call: fc.Arbitrary<CountedCall> = fc.record({
      usage: fc.option(fc.record({ inputTokens: field, outputTokens: field, cacheReadTokens: field, cacheWriteTokens: field, costUsd: field, model: fc.constant(null) }), { nil: null }),
      durationMs: fc.option(fc.nat(), { nil: null }),
    });
    fc.assert(fc.property(fc.array(call), (calls) => {
      const totals = totalUsage(calls);
      expect(calls.reduce(addCall, NO_USAGE)).toEqual(totals);
      const unknownCost = calls.filter((c) => c.usage?.costUsd == null).length;
      expect(totals.unknownCostCalls).toBe(unknownCost);
      expect(totals.costUsd === null).toBe(unknownCost > 0);
    }));
  });
});
