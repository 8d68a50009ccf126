// The usage ledger: every agent call and what it spent, folded from the journal (DESIGN §6).
import type { Config } from '../../config/types.js';
import type { EffectParams, EffectResult, Usage } from '../../machines/effects.js';
import { pricedUsage } from '../../machines/price-usage.js';
import type { JournalRecord } from '../journal/record.js';

// A ledger entry is a counted call: its usage is already priced, and `totalUsage` sums entries.
export { totalUsage, type UsageTotals } from '../../machines/usage-totals.js';

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

/** Group entries by a key, keeping first-seen order. */
export function groupBy(entries: readonly LedgerEntry[], key: (entry: LedgerEntry) => string): Map<string, LedgerEntry[]> {
  const groups = new Map<string, LedgerEntry[]>();
  for (const entry of entries) {
    const name = key(entry);
    groups.set(name, [...(groups.get(name) ?? []), entry]);
  }
  return groups;
}
