// The live status line's text: mode, run, iteration, phase, elapsed, tokens, cost, agent silence.
import type { ItemProgress } from '../machines/lifecycles/lifecycle-descriptor.js';
import type { UsageTotals } from '../store/projections/usage-ledger.js';
import { compact } from './status-text.js';

/** The facts one status line shows. */
export interface StatusLineFacts {
  mode: string;
  run: string;
  chunk: number | null;
  iteration: number | null;
  maxIterations: number | null;
  unit: string;
  /** what runs now (`worker agent`, `guard tests`), null between steps */
  phase: string | null;
  elapsedMs: number;
  usage: UsageTotals;
  /** since the agent's last output; null when no agent runs */
  silentMs: number | null;
  /** how many of the run's work items passed (stories: its stories); null when its lifecycle counts none */
  progress?: ItemProgress | null;
}

/** `yoke · loop 01JD8XQ2M7 · iteration 3/20 · worker agent · 2m13s · 12.3k tokens · $0.42 · silent 45s` */
export function statusLineText(facts: StatusLineFacts, color: boolean): string {
  const parts = [
    `${facts.mode} ${facts.run.slice(0, 10)}`,
    `${facts.chunk ? `chunk ${facts.chunk} ` : ''}${facts.unit} ${facts.iteration ?? '?'}/${facts.maxIterations ?? '?'}`,
    ...(facts.progress ? [`${facts.progress.passed}/${facts.progress.total} ${facts.progress.items} passed`] : []),
    facts.phase ?? 'between steps',
    clock(facts.elapsedMs),
  ];
  if (facts.usage.calls > 0) {
    const unknown = facts.usage.unknownCalls > 0;
    parts.push(`${compact(facts.usage.knownTokens)}${unknown ? '+' : ''} tokens`);
    if (facts.usage.costUsd !== null || facts.usage.knownCostUsd > 0) parts.push(`$${facts.usage.knownCostUsd.toFixed(2)}${facts.usage.costUsd === null ? '+' : ''}`);
  }
  if (facts.silentMs !== null) parts.push(facts.silentMs < 1000 ? 'talking' : `silent ${clock(facts.silentMs)}`);
  return color ? `\x1b[36myoke\x1b[0m \x1b[2m·\x1b[0m ${parts.join(' \x1b[2m·\x1b[0m ')}` : `yoke · ${parts.join(' · ')}`;
}

/** 45_000 → `45s`, 133_000 → `2m13s`, 7_500_000 → `2h05m`. */
export function clock(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}
