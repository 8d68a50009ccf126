// `price` directives turn reported tokens into a cost only where the CLI reported none.
import { describe, expect, it } from 'vitest';
import type { Usage } from '../../machines/effects.js';
import { pricedUsage } from '../../machines/price-usage.js';

const usage = (over: Partial<Usage>): Usage => ({ inputTokens: 2_000_000, outputTokens: 500_000, cacheReadTokens: null, cacheWriteTokens: null, costUsd: null, model: 'gpt-5.5', ...over });
const prices = { 'gpt-5.5': { inputPerMTok: 1.25, outputPerMTok: 10 } };

describe('pricedUsage', () => {
  it('prices input and output tokens per million for a model with a price', () => {
    expect(pricedUsage(usage({}), prices)?.costUsd).toBe(7.5);
  });

  it('never replaces a cost the CLI reported, and leaves unknown what it cannot price', () => {
    expect(pricedUsage(usage({ costUsd: 0.3 }), prices)?.costUsd).toBe(0.3);
    expect(pricedUsage(usage({ model: 'other' }), prices)?.costUsd).toBeNull();
    expect(pricedUsage(usage({ outputTokens: null }), prices)?.costUsd).toBeNull();
    expect(pricedUsage(usage({ model: null }), prices)?.costUsd).toBeNull();
    expect(pricedUsage(null, prices)).toBeNull();
    expect(pricedUsage(usage({}), undefined)?.costUsd).toBeNull(); // a journal from before `price`
    for (const model of ['constructor', '__proto__', 'toString']) expect(pricedUsage(usage({ model }), prices)?.costUsd).toBeNull();
  });
});
