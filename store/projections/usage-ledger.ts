// The usage ledger: every agent call and what it spent, folded from the journal (DESIGN §6).
import type { Config } from '../../config/types.js';
import type { EffectParams, EffectResult, Usage } from '../../machines/effects.js';
import { pricedUsage } from '../../machines/price-usage.js';
import type { JournalRecord } from '../journal/record.js';

/** One agent call as the ledger records it; `usage` null = unknown (never zero). */
export interface LedgerEntry {
  run: string;
  key: string;
  role: string;
  iteration: number;
  chunk: number | null;
  attempt: number | null;
  /** the model the call asked for (`model` directive), if any */
  requestedModel: string | null;
  status: 'completed' | 'interrupted' | 'running';
  outcome: string | null;
  /** how the call ended as its adapter classified it (`ok`, `rate-limited`, …), and why */
  classification: string | null;
  detail: string | null;
  /** where the cost came from: the CLI's own figure, a `price` directive, or nowhere (unknown) */
  costSource: 'cli' | 'price' | null;
  durationMs: number | null;
  usage: Usage | null;
}

/** Every agent call in journal order (a call that started but has no outcome yet is `running`). */
export function readLedger(records: readonly JournalRecord[]): LedgerEntry[] {
  const entries = new Map<string, LedgerEntry>();
  const prices = new Map<string, Config['prices']>();
  for (const record of records) {
    if (record.type === 'run.started') {
      prices.set(record.run ?? '', (record.payload.input as { config?: Pick<Config, 'prices'> } | null)?.config?.prices);
    } else if (record.type === 'effect.started' && record.payload.kind === 'agent.spawn' && !entries.has(record.payload.key)) {
      const params = record.payload.params as EffectParams<'agent.spawn'>;
      entries.set(record.payload.key, {
        run: record.run ?? '', key: record.payload.key, role: params.role, iteration: params.iteration,
        chunk: params.chunk ?? null, attempt: params.attempt ?? null, requestedModel: params.model,
        status: 'running', outcome: null, classification: null, detail: null, costSource: null, durationMs: null, usage: null,
      });
    } else if (record.type === 'effect.completed' && record.payload.kind === 'agent.spawn') {
      const entry = entries.get(record.payload.key);
      if (!entry) continue;
      const result = record.payload.result as EffectResult<'agent.spawn'>;
      // The same pricing the machine applied, so budgets and this ledger agree.
      const usage = pricedUsage(result.usage, prices.get(entry.run));
      const costSource = usage?.costUsd == null ? null : result.usage?.costUsd == null ? 'price' : 'cli';
      Object.assign(entry, {
        status: 'completed', outcome: result.outcome, classification: result.classification ?? null, detail: result.detail ?? null,
        costSource, durationMs: result.durationMs, usage,
      });
    } else if (record.type === 'effect.interrupted' && record.payload.kind === 'agent.spawn') {
      const entry = entries.get(record.payload.key);
      if (entry) Object.assign(entry, { status: 'interrupted', outcome: 'interrupted' });
    }
  }
  return [...entries.values()];
}

/** Sums over a group of calls; a field is null when any call left it unknown. */
export interface UsageTotals {
  calls: number;
  unknownCalls: number;
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadTokens: number | null;
  cacheWriteTokens: number | null;
  costUsd: number | null;
  /** what is known, even when some calls are unknown */
  knownCostUsd: number;
  knownTokens: number;
  durationMs: number;
}

const FIELDS = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'costUsd'] as const;

/** Total a group of calls: exact sums, or null for a field some call did not report. */
export function totalUsage(entries: readonly LedgerEntry[]): UsageTotals {
  const totals: UsageTotals = {
    calls: entries.length, unknownCalls: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0,
    costUsd: 0, knownCostUsd: 0, knownTokens: 0, durationMs: 0,
  };
  for (const entry of entries) {
    totals.durationMs += entry.durationMs ?? 0;
    if (!entry.usage) totals.unknownCalls += 1;
    for (const field of FIELDS) {
      const value = entry.usage?.[field] ?? null;
      totals[field] = value === null || totals[field] === null ? null : (totals[field] ?? 0) + value;
    }
    totals.knownCostUsd += entry.usage?.costUsd ?? 0;
    totals.knownTokens += (entry.usage?.inputTokens ?? 0) + (entry.usage?.outputTokens ?? 0);
  }
  return totals;
}

/** Group entries by a key, keeping first-seen order. */
export function groupBy(entries: readonly LedgerEntry[], key: (entry: LedgerEntry) => string): Map<string, LedgerEntry[]> {
  const groups = new Map<string, LedgerEntry[]>();
  for (const entry of entries) {
    const name = key(entry);
    groups.set(name, [...(groups.get(name) ?? []), entry]);
  }
  return groups;
}
