// `yoke usage`: what the agents spent, by run, role and model (unknown stays unknown).
import { groupBy, readLedger, totalUsage, type LedgerEntry, type UsageTotals } from '../../store/projections/usage-ledger.js';
import { readWorkspace } from '../../store/session/read-workspace.js';
import { countToolRulings, rulingCountsText } from '../../store/projections/tool-ruling-counts.js';
import { findProjectQuick } from '../find-project-quick.js';
import { groupDigits } from '../group-digits.js';
import { workspaceTarget } from '../workspace-target.js';

/** Print totals, or with --json the totals plus every call. */
export async function usageCommand(flags: { json: boolean; run?: string; workspace?: string }): Promise<number> {
  const { records } = await readWorkspace(await workspaceTarget(flags.workspace, () => findProjectQuick(process.cwd())));
  const all = readLedger(records);
  const wanted = flags.run?.toUpperCase();
  const entries = wanted ? all.filter((entry) => entry.run.startsWith(wanted)) : all;
  const rulings = countToolRulings(records, (run) => wanted === undefined || (run ?? '').startsWith(wanted));
  const by = (key: (entry: LedgerEntry) => string) => Object.fromEntries([...groupBy(entries, key)].map(([name, group]) => [name, totalUsage(group)]));
  const report = {
    total: totalUsage(entries),
    byRun: by((entry) => entry.run),
    byRole: by((entry) => entry.role),
    byModel: by((entry) => entry.usage?.model ?? entry.requestedModel ?? 'unknown'),
    toolCalls: rulings,
  };
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ ...report, calls: entries })}\n`);
    return 0;
  }
  if (entries.length === 0) {
    process.stdout.write('No agent calls recorded yet.\n');
    if (rulings.total > 0) process.stdout.write(`tool calls: ${rulingCountsText(rulings)}\n`);
    return 0;
  }
  process.stdout.write(`${'group'.padEnd(34)} ${'calls'.padStart(5)} ${'input'.padStart(10)} ${'output'.padStart(10)} ${'cache r/w'.padStart(15)} ${'cost $'.padStart(9)} ${'agent time'.padStart(10)}\n`);
  const row = (name: string, t: UsageTotals) => process.stdout.write(
    `${name.slice(0, 34).padEnd(34)} ${String(t.calls).padStart(5)} ${num(t.inputTokens).padStart(10)} ${num(t.outputTokens).padStart(10)} ${`${num(t.cacheReadTokens)}/${num(t.cacheWriteTokens)}`.padStart(15)} ${money(t.costUsd).padStart(9)} ${`${(t.durationMs / 1000).toFixed(1)}s`.padStart(10)}\n`,
  );
  row('total', report.total);
  for (const [title, groups] of [['run', report.byRun], ['role', report.byRole], ['model', report.byModel]] as const) {
    for (const [name, totals] of Object.entries(groups)) row(`${title} ${name}`, totals);
  }
  if (rulings.total > 0) process.stdout.write(`\ntool calls: ${rulingCountsText(rulings)}\n`);
  if (report.total.unknownCalls > 0) {
    process.stdout.write(`\n? = unknown: ${report.total.unknownCalls} call(s) reported no usage (or were interrupted); unknown is never counted as zero.\n`);
  }
  return 0;
}

function num(value: number | null): string {
  return value === null ? '?' : groupDigits(value);
}

function money(value: number | null): string {
  return value === null ? '?' : value.toFixed(4);
}
