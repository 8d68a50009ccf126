// A replayed run as text: a header, one line per step, and the outcome (`yoke replay`, `yoke demo`).
import type { ReplayedRun, ReplayOutcome, ReplayStep } from '../store/projections/replay-steps.js';
import { groupDigits } from './group-digits.js';

/** Render a replayed run as aligned lines. */
export function renderTimeline(replayed: ReplayedRun): string[] {
  const lines = renderHeader(replayed);
  for (const step of replayed.steps) lines.push(renderStep(step));
  lines.push(renderOutcome(replayed.outcome));
  return lines;
}

/** The run's line and the column heads (`yoke replay` streams the steps after them). */
export function renderHeader(replayed: Pick<ReplayedRun, 'run' | 'mode' | 'machine' | 'version' | 'startedAt'>): string[] {
  return [
    `run ${replayed.run} (${replayed.mode}, machine ${replayed.machine} v${replayed.version ?? '?'}), started ${replayed.startedAt}`,
    `${'seq'.padStart(6)} ${'time'.padStart(8)}  ${'state'.padEnd(34)}  ${'event'.padEnd(20)}  effect`,
  ];
}

/** One step: seq, time since start, state before → after, event, and the effect it reports on. */
export function renderStep(step: ReplayStep): string {
  return `${String(step.seq).padStart(6)} ${elapsed(step.elapsedMs).padStart(8)}  ${transitionText(step).padEnd(34)}  ${step.event.padEnd(20)}  ${describeStep(step)}`.trimEnd();
}

function describeStep(step: ReplayStep): string {
  const parts: string[] = [];
  if (step.effect) {
    const facts = [
      step.effect.durationMs === null ? null : seconds(step.effect.durationMs),
      step.usage ? tokens(step.usage.inputTokens, step.usage.outputTokens) : step.effect.kind === 'agent.spawn' && step.effect.outcome.startsWith('exit') ? 'usage unknown' : null,
      step.usage?.costUsd == null ? null : dollars(step.usage.costUsd),
      step.effect.attempts > 1 ? `${step.effect.attempts} attempts` : null,
    ].filter((fact): fact is string => fact !== null);
    parts.push(`${step.effect.label} → ${step.effect.outcome}${facts.length > 0 ? ` (${facts.join(', ')})` : ''}`);
  }
  if (step.detail) parts.push(step.detail);
  if (step.via.length > 0) parts.push(`via ${step.via.map(busyText).join(', ')}`);
  return parts.join('; ');
}

/**
 * A step's state column: `a → b`, only the regions that changed within a parallel state, or (two
 * spaces in front) the state a step that changed nothing happened in. `yoke replay` and its page share it.
 */
export function transitionText(step: Pick<ReplayStep, 'from' | 'to' | 'record'>): string {
  return step.from === step.to && step.record !== 'event' ? `  ${busyText(step.to)}` : changeText(step.from, step.to);
}

/** A parallel state's text (`parallel.lane1.working,lane2.idle,…`) as its name and regions (in document order); null for any other state. */
export function regionsOf(text: string): { name: string; regions: Map<string, string> } | null {
  if (!text.includes(',')) return null;
  const [first = '', ...rest] = text.split(',');
  const dot = first.indexOf('.');
  if (dot < 0) return null;
  const regions = new Map<string, string>();
  for (const part of [first.slice(dot + 1), ...rest]) {
    const at = part.indexOf('.');
    if (at < 0) return null;
    regions.set(part.slice(0, at), part.slice(at + 1));
  }
  return { name: first.slice(0, dot), regions };
}

/** A parallel state with its idle regions left out (`parallel{lane1.working, integration.checking}`); any other state as it is. */
export function busyText(text: string): string {
  const parallel = regionsOf(text);
  if (parallel === null) return text;
  const at = [...parallel.regions].filter(([, state]) => state !== 'idle').map(([region, state]) => `${region}.${state}`);
  return `${parallel.name}{${at.length === 0 ? 'idle' : at.join(', ')}}`;
}

/** `a → b`; within a parallel state only the regions that changed (`lane2 working → readingNotes`), so lanes read side by side. */
function changeText(from: string | null, to: string): string {
  const before = from === null ? null : regionsOf(from);
  const after = regionsOf(to);
  if (before === null || after === null || before.name !== after.name) return `${from === null ? '·' : busyText(from)} → ${busyText(to)}`;
  const changed = [...after.regions].filter(([region, state]) => before.regions.get(region) !== state).map(([region, state]) => `${region} ${before.regions.get(region) ?? '?'} → ${state}`);
  return changed.length === 0 ? `  ${busyText(to)}` : changed.join('; ');
}

/** The closing line: how the run ended and what it cost. */
export function renderOutcome(outcome: ReplayOutcome): string {
  const end = outcome.status === 'finished'
    ? `finished in ${outcome.state}: ${outcome.reason ?? '?'} (exit ${outcome.exitCode ?? '?'})`
    : outcome.status === 'abandoned' ? `abandoned in ${outcome.state}` : `unfinished, in ${outcome.state} (\`yoke run\` resumes it)`;
  const usage = outcome.agentCalls === 0 ? 'no agent calls' : [
    `${outcome.agentCalls} agent call${outcome.agentCalls === 1 ? '' : 's'}`,
    outcome.unknownUsage === outcome.agentCalls ? 'tokens unknown' : `${tokens(outcome.inputTokens, outcome.outputTokens)}${outcome.unknownUsage > 0 ? ` (+ unknown for ${outcome.unknownUsage})` : ''}`,
    outcome.unknownCost === outcome.agentCalls ? 'cost unknown' : `${dollars(outcome.costUsd)}${outcome.unknownCost > 0 ? ` (+ unknown for ${outcome.unknownCost})` : ''}`,
  ].join(', ');
  return `outcome: ${end} after ${elapsed(outcome.durationMs).slice(1)}; ${usage}`;
}

function tokens(input: number | null, output: number | null): string {
  return `${input === null ? '?' : groupDigits(input)} in / ${output === null ? '?' : groupDigits(output)} out tokens`;
}

function dollars(value: number): string {
  return `$${value.toFixed(4)}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

/** `+4.2s`, `+12m05s`, `+3h07m`. */
function elapsed(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  if (s < 60) return `+${s.toFixed(1)}s`;
  if (s < 3600) return `+${Math.floor(s / 60)}m${String(Math.floor(s % 60)).padStart(2, '0')}s`;
  return `+${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
