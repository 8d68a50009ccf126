// The one calculation of what agent calls spent. Budgets (the machine's `spent`), the usage ledger,
// `yoke replay`, the HTML page, `yoke status` and the live line all count calls through it, so no
// two surfaces can disagree: prices are applied the same way and unknown stays unknown everywhere.
// A call's usage is counted after `pricedUsage` (machines/price-usage.ts) filled in its cost.
import type { Usage } from './effects.js';

/**
 * What one call spent, as budgets see it: its tokens (input + output, known only when both are) and
 * its cost, each null when unknown — never zero.
 */
export function callSpend(usage: Usage | null): { tokens: number | null; costUsd: number | null } {
  const tokens = usage && usage.inputTokens !== null && usage.outputTokens !== null ? usage.inputTokens + usage.outputTokens : null;
  return { tokens, costUsd: usage?.costUsd ?? null };
}

/** Sums over a group of calls. */
export interface UsageTotals {
  calls: number;
  /** calls that reported no usage at all (or were cut short) */
  unknownCalls: number;
  /** exact sums: null when some call did not report the field */
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadTokens: number | null;
  cacheWriteTokens: number | null;
  costUsd: number | null;
  /** what is known, even when some calls are unknown (the budgets' view): calls whose tokens are known */
  knownTokens: number;
  knownInputTokens: number;
  knownOutputTokens: number;
  knownCostUsd: number;
  /** calls whose tokens / cost are unknown: the known figures are lower bounds then */
  unknownTokenCalls: number;
  unknownCostCalls: number;
  durationMs: number;
}

/** No calls yet. */
export const NO_USAGE: UsageTotals = {
  calls: 0, unknownCalls: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0,
  knownTokens: 0, knownInputTokens: 0, knownOutputTokens: 0, knownCostUsd: 0, unknownTokenCalls: 0, unknownCostCalls: 0, durationMs: 0,
};

const EXACT = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'costUsd'] as const;

/** A call that ended: its counted usage (null: unknown) and how long it took. */
export interface CountedCall {
  usage: Usage | null;
  durationMs: number | null;
}

/** The totals after one more call (pure: `totals` is not changed). */
export function addCall(totals: UsageTotals, call: CountedCall): UsageTotals {
  const next = { ...totals, calls: totals.calls + 1, durationMs: totals.durationMs + (call.durationMs ?? 0) };
  const { usage } = call;
  if (!usage) next.unknownCalls += 1;
  for (const field of EXACT) {
    const value = usage?.[field] ?? null;
    next[field] = value === null || totals[field] === null ? null : (totals[field] ?? 0) + value;
  }
  const spend = callSpend(usage);
  if (spend.tokens === null) next.unknownTokenCalls += 1;
  else {
    next.knownTokens += spend.tokens;
    next.knownInputTokens += usage?.inputTokens ?? 0;
    next.knownOutputTokens += usage?.outputTokens ?? 0;
  }
  if (spend.costUsd === null) next.unknownCostCalls += 1;
  else next.knownCostUsd += spend.costUsd;
  return next;
}

/** Total a group of calls. */
export function totalUsage(calls: Iterable<CountedCall>): UsageTotals {
  let totals = NO_USAGE;
  for (const call of calls) totals = addCall(totals, call);
  return totals;
}
