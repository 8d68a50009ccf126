// The outcomes decided by the process runner rather than the CLI: they win over anything parsed.
import type { AgentClassification } from '../../machines/effects.js';
import type { ProcessEnd } from './agent-outcome.js';

/** The limits the call ran under, to name them in details. */
export interface CallLimits {
  idleTimeoutMs: number;
  timeoutMs: number;
}

/** idle timeout, hard timeout, a failed start or death by a signal; null when the process simply exited. */
export function processVerdict(end: ProcessEnd, limits: CallLimits): { classification: AgentClassification; detail: string } | null {
  switch (end.outcome) {
    case 'idle-timeout':
      return { classification: 'idle-timeout', detail: `no output for ${formatMs(limits.idleTimeoutMs)} (idle-timeout): the agent was killed` };
    case 'timed-out':
      return { classification: 'timed-out', detail: `still running after ${formatMs(limits.timeoutMs)} (agent-timeout): the agent was killed` };
    case 'spawn-failed':
      return { classification: 'crashed', detail: `could not start the agent: ${end.error ?? 'unknown error'}` };
    case 'exited':
      return end.signal === null ? null : { classification: 'crashed', detail: `killed by ${end.signal}` };
  }
}

/** `exit 3` or `killed by SIGTERM`. */
export function describeExit(end: ProcessEnd): string {
  if (end.signal !== null) return `killed by ${end.signal}`;
  return `exit ${end.exitCode ?? '?'}`;
}

/** `90s`, `20m`, `1h30m`: a duration as yoke.conf writes it. */
export function formatMs(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return ms < 1000 ? `${ms}ms` : `${seconds}s`;
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h > 0 ? `${h}h` : ''}${m > 0 ? `${m}m` : ''}${s > 0 ? `${s}s` : ''}`;
}
