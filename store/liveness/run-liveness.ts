// Whether the latest run is alive: the journal's verdict, the lock and the heartbeat, judged together.
import type { Heartbeat } from './heartbeat.js';
import type { RunSummary } from '../projections/run-summary.js';
import type { LeaseHolder } from '../journal/journal-store.js';

/** After this long without agent output, status says `silent for N min`. */
export const SILENT_AFTER_MS = 60_000;

/**
 * - `running`: a live yoke drives the run (its agent, if any, spoke within the last minute)
 * - `silent`: the agent has said nothing for a minute or more, still within its idle timeout
 * - `possibly-stuck`: the agent has been silent past its idle timeout (yoke should have stopped it)
 * - `dead`: the yoke recorded as driving it (pid + start time) is gone without a trace (crash, kill -9)
 * - `stopped`: it stopped cleanly (signal, budget hold, failed effect); `yoke run` resumes it
 * - `finished` / `abandoned`: nothing will run again
 */
export type LivenessState = 'running' | 'silent' | 'possibly-stuck' | 'dead' | 'stopped' | 'finished' | 'abandoned';

/** The agent call in flight, as far as the heartbeat knows. */
export interface CallLiveness {
  role: string;
  iteration: number;
  pid: number | null;
  /** is the agent's process group leader still the recorded process? */
  alive: boolean;
  startedAt: number;
  /** since the last output (or the start, when it said nothing yet) */
  silentMs: number;
  idleTimeoutMs: number;
}

/** One lane of a parallel run at work, as far as the heartbeat knows. */
export interface LaneLiveness {
  story: string;
  phase: string;
  /** since the lane's step started */
  forMs: number;
  /** an agent call's time since its last output (or its start); null for other steps */
  silentMs: number | null;
}

/** The verdict and what it rests on. */
export interface Liveness {
  state: LivenessState;
  /** the yoke process driving (or last recorded driving) the run */
  yokePid: number | null;
  call: CallLiveness | null;
  /** a live parallel run's lanes at work (empty otherwise) */
  lanes: LaneLiveness[];
}

/** The facts the verdict is drawn from; `isAlive` checks pid + kernel start time (never a name). */
export interface LivenessFacts {
  summary: Pick<RunSummary, 'run' | 'status' | 'lastStop'>;
  lock: LeaseHolder | null;
  heartbeat: Heartbeat | null;
  now: number;
  isAlive: (pid: number, startTime: string | null) => boolean;
}

/** Judge the latest run's liveness; never says `running` for a process that is gone. */
export function judgeLiveness(facts: LivenessFacts): Liveness {
  const { summary, lock, now, isAlive } = facts;
  if (summary.status === 'finished') return { state: 'finished', yokePid: null, call: null, lanes: [] };
  if (summary.status === 'abandoned') return { state: 'abandoned', yokePid: null, call: null, lanes: [] };
  const heartbeat = facts.heartbeat?.run === summary.run ? facts.heartbeat : null;
  const runLock = lock && lock.command.startsWith('yoke run') ? lock : null;
  const driver = runLock ?? (heartbeat ? { pid: heartbeat.yoke.pid, startTime: heartbeat.yoke.startTime } : null);
  const call = heartbeat?.call ? callLiveness(heartbeat.call, now, isAlive) : null;
  if (driver && isAlive(driver.pid, driver.startTime)) {
    // the heartbeat belongs to this yoke only if it names the same process
    const ours = heartbeat !== null && heartbeat.yoke.pid === driver.pid;
    const mine = ours ? call : null;
    const lanes = ours ? (heartbeat.lanes ?? []).map((lane) => ({
      story: lane.story, phase: lane.phase, forMs: Math.max(0, now - lane.startedAt), silentMs: lane.agent ? Math.max(0, now - (lane.lastOutputAt ?? lane.startedAt)) : null,
    })) : [];
    return { state: mine ? callState(mine) : 'running', yokePid: driver.pid, call: mine, lanes };
  }
  if (driver || summary.lastStop?.startsWith('stopped without a trace')) {
    return { state: 'dead', yokePid: driver?.pid ?? null, call, lanes: [] };
  }
  return { state: 'stopped', yokePid: null, call: null, lanes: [] };
}

function callLiveness(call: NonNullable<Heartbeat['call']>, now: number, isAlive: LivenessFacts['isAlive']): CallLiveness {
  return {
    role: call.role,
    iteration: call.iteration,
    pid: call.pid,
    alive: call.pid !== null && isAlive(call.pid, call.startTime),
    startedAt: call.startedAt,
    silentMs: Math.max(0, now - (call.lastOutputAt ?? call.startedAt)),
    idleTimeoutMs: call.idleTimeoutMs,
  };
}

function callState(call: CallLiveness): LivenessState {
  if (call.idleTimeoutMs > 0 && call.silentMs > call.idleTimeoutMs) return 'possibly-stuck';
  if (call.silentMs >= SILENT_AFTER_MS) return 'silent';
  return 'running';
}
