// `yoke status` as text and as JSON, from a loaded report.
import type { ItemProgress } from '../machines/lifecycles/lifecycle-descriptor.js';
import type { Liveness } from '../store/liveness/run-liveness.js';
import { rulingCountsText } from '../store/projections/tool-ruling-counts.js';
import type { UsageTotals } from '../store/projections/usage-ledger.js';
import type { StatusReport } from './status-report.js';

/** The human form: one block of lines. */
export function statusText(report: StatusReport): string {
  if (report.run === null) return 'No runs yet. Start one with `yoke run`.';
  const { summary, usage, phase } = report.view;
  const { liveness } = report;
  const lines = [`run ${summary.run} (${summary.mode}, machine ${summary.machine} v${summary.machineVersion ?? '?'})`];
  lines.push(`  started   ${summary.startedAt}`);
  lines.push(`  ${summary.unit.padEnd(9)} ${summary.iteration ?? '-'} of ${summary.maxIterations ?? '-'}, ${summary.agentCalls} worker call(s)${summary.interruptions > 0 ? `, ${summary.interruptions} interrupted` : ''}`);
  if (summary.progress !== null) lines.push(`  ${summary.progress.items.padEnd(9)} ${itemProgressText(summary.progress)}`);
  const lanes = isLive(liveness) ? liveness.lanes : [];
  lines.push(`  state     ${summary.state}${phase && isLive(liveness) && lanes.length === 0 ? ` (${phase})` : ''}`);
  // a parallel run: each lane at work, its step and how long it has been silent
  for (const lane of lanes) lines.push(`  lane ${lane.story.padEnd(5)}${laneText(lane)}`);
  if (usage.calls > 0) lines.push(`  usage     ${usageText(usage)}`);
  if (report.view.rulings.total > 0) lines.push(`  tools     ${rulingCountsText(report.view.rulings)}`);
  // a status view cached by an older yoke has no `acceptance`
  const proof = summary.acceptance ?? null;
  if (proof !== null) lines.push(`  evidence  acceptance ${proof.status} (${summary.unit} ${proof.iteration}): ${proof.path} sha256 ${proof.sha256.slice(0, 16)}`);
  switch (liveness.state) {
    case 'finished':
      lines.push(`  finished  ${summary.lastRecordAt}: ${summary.exitCode === 0 ? 'success' : summary.reason ?? 'unsuccessful'} (exit ${summary.exitCode ?? '?'})`);
      break;
    case 'abandoned':
      lines.push('  abandoned (a fresh run replaced it)');
      break;
    case 'running':
    case 'silent':
    case 'possibly-stuck':
      lines.push(`  ${liveness.state === 'running' ? 'running  ' : liveness.state === 'silent' ? 'silent   ' : 'STUCK?   '} ${liveText(liveness, summary.lastRecordAt)}`);
      break;
    case 'dead':
      lines.push(`  DEAD      ${deadText(liveness)}`);
      break;
    case 'stopped':
      lines.push(`  stopped   ${summary.lastStop ?? 'unknown'} at ${summary.lastRecordAt}; \`yoke run\` resumes it`);
      break;
  }
  if (report.tornTail) lines.push('  warning   the journal ends with a torn line (a crash mid-write); `yoke run` removes it');
  return lines.join('\n');
}

/** The `--json` form: the run summary with liveness, usage and phase (stable field names). */
export function statusJson(report: StatusReport): Record<string, unknown> {
  if (report.run === null) return { run: null, running: report.running };
  const { liveness } = report;
  const running = isLive(liveness);
  return {
    ...report.view.summary,
    running,
    pid: running ? liveness.yokePid : null,
    liveness: liveness.state,
    yokePid: liveness.yokePid,
    phase: running ? report.view.phase : null,
    agent: liveness.call,
    lanes: running ? liveness.lanes : [],
    usage: report.view.usage,
    toolCalls: report.view.rulings,
    // `stories` said the same before `progress` did (its passed and total), and still does
    stories: report.view.summary.progress === null ? null : { passed: report.view.summary.progress.passed, total: report.view.summary.progress.total },
    tornTail: report.tornTail,
  };
}

/** `2 of 5 stories passed`: how far a run is through its work items, as status, progress lines and the worker's prompt say it. */
export function itemProgressText(progress: ItemProgress): string {
  return `${progress.passed} of ${progress.total} ${progress.items} passed`;
}

function isLive(liveness: Liveness): boolean {
  return liveness.state === 'running' || liveness.state === 'silent' || liveness.state === 'possibly-stuck';
}

function liveText(liveness: Liveness, lastRecordAt: string): string {
  const call = liveness.call;
  const yoke = `yoke pid ${liveness.yokePid ?? '?'}`;
  if (!call) return `${yoke}, last record ${lastRecordAt}`;
  const agent = `${call.role} agent${call.pid !== null ? ` pid ${call.pid}` : ''}`;
  const silence = call.silentMs < 1000 ? 'talking' : `silent for ${duration(call.silentMs)}`;
  const timeout = call.idleTimeoutMs > 0 ? ` (idle timeout ${duration(call.idleTimeoutMs)})` : ' (no idle timeout)';
  const stuck = liveness.state === 'possibly-stuck' ? '; yoke should have stopped it: check the agent and yoke' : '';
  return `${yoke}, ${agent} ${silence}${timeout}${stuck}`;
}

function laneText(lane: Liveness['lanes'][number]): string {
  const silence = lane.silentMs === null ? '' : lane.silentMs < 1000 ? ', talking' : `, silent for ${duration(lane.silentMs)}`;
  return ` ${lane.phase} for ${duration(lane.forMs)}${silence}`;
}

function deadText(liveness: Liveness): string {
  const who = liveness.yokePid !== null ? `the yoke driving it (pid ${liveness.yokePid}) is gone` : 'the yoke driving it is gone';
  const orphan = liveness.call?.alive ? `; its ${liveness.call.role} agent (pid ${liveness.call.pid ?? '?'}) is still running and \`yoke run\` stops it first` : '';
  return `${who} without a trace (crash or kill -9)${orphan}; \`yoke run\` resumes it`;
}

function usageText(usage: UsageTotals): string {
  if (usage.unknownCalls === usage.calls) return `unknown: none of the ${usage.calls} agent call(s) reported usage`;
  const tokens = usage.inputTokens === null || usage.outputTokens === null ? `${compact(usage.knownTokens)}+ tokens` : `${compact(usage.knownTokens)} tokens`;
  const cost = usage.costUsd === null ? (usage.knownCostUsd > 0 ? `, $${usage.knownCostUsd.toFixed(2)}+` : '') : `, $${usage.costUsd.toFixed(2)}`;
  const unknown = usage.unknownCalls > 0 ? ` (${usage.unknownCalls} of ${usage.calls} call(s) reported no usage)` : '';
  return `${tokens}${cost} over ${usage.calls} agent call(s)${unknown}`;
}

/** 950 → `950`, 12_345 → `12.3k`, 2_500_000 → `2.5M`. */
export function compact(value: number): string {
  if (value < 1000) return String(value);
  if (value < 1_000_000) return `${(value / 1000).toFixed(1)}k`;
  return `${(value / 1_000_000).toFixed(1)}M`;
}

/** 45_000 → `45s`, 190_000 → `3 min`, 7_500_000 → `2h05`. */
export function duration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}`;
}
