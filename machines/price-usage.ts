// Cost from `price` directives, for calls whose CLI reported tokens but no cost (codex, gemini, cmd).
import type { Config } from '../config/types.js';
import type { Usage } from './effects.js';

/**
 * The usage with `costUsd` filled in from `prices` when the CLI reported none, the model it
 * reported has a price, and both token counts are known: input × input price + output × output
 * price, per million tokens. Cached input is priced as input (codex and gemini count it in input),
 * so the figure errs high. Otherwise the usage as it was: an unknown cost stays unknown.
 * @example pricedUsage({ ...usage, inputTokens: 1_000_000, outputTokens: 0, costUsd: null, model: 'm' }, { m: { inputPerMTok: 2, outputPerMTok: 8 } }).costUsd // 2
 */
export function pricedUsage(usage: Usage | null, prices: Config['prices']): Usage | null {
  if (usage === null || usage.costUsd !== null || usage.model === null) return usage;
  // Own keys only: a model an agent names `constructor` or `__proto__` must not find a "price".
  const price = prices && Object.hasOwn(prices, usage.model) ? prices[usage.model] : undefined;
  if (price === undefined || usage.inputTokens === null || usage.outputTokens === null) return usage;
  const cost = (usage.inputTokens * price.inputPerMTok + usage.outputTokens * price.outputPerMTok) / 1_000_000;
  return Number.isFinite(cost) ? { ...usage, costUsd: Math.round(cost * 1e9) / 1e9 } : usage;
}
