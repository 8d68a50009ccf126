// Keeps the heartbeat file in step with the agent call in flight, writing at most once a second for output.
import { processStartTime } from '../../effects/process/process-identity.js';
import { removeHeartbeat, writeHeartbeat, type Heartbeat, type HeartbeatCall, type HeartbeatLane } from './heartbeat.js';

/** How often output may rewrite the heartbeat: status's silence is exact to this much. */
export const HEARTBEAT_INTERVAL_MS = 1000;

/**
 * The running yoke's side of the heartbeat. Call starts, the agent's pid and call ends are written
 * at once (a few per agent call); output only marks the heartbeat dirty, and a timer writes it at
 * most once per {@link HEARTBEAT_INTERVAL_MS}, so a chatty agent costs one small rename a second.
 * Write failures are swallowed: the heartbeat is a hint and must never stop a run.
 */
export class HeartbeatKeeper {
  private call: HeartbeatCall | null = null;
  private readonly lanes = new Map<string, HeartbeatLane>();
  private lastWrite = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly yoke: Heartbeat['yoke'];

  constructor(
    private readonly path: string,
    private readonly run: string,
    private readonly now: () => number = Date.now,
  ) {
    this.yoke = { pid: process.pid, startTime: processStartTime(process.pid) };
    this.write();
  }

  /** An agent call started (its `effect.started` is journaled). */
  callStarted(call: Omit<HeartbeatCall, 'pid' | 'startTime' | 'lastOutputAt'>): void {
    this.call = { ...call, pid: null, startTime: null, lastOutputAt: null };
    this.write();
  }

  /** The agent's process group leader was journaled. */
  agentSpawned(key: string, pid: number, startTime: string | null): void {
    if (this.call?.key !== key) return;
    this.call.pid = pid;
    this.call.startTime = startTime;
    this.write();
  }

  /** The agent wrote something. */
  output(): void {
    if (!this.call) return;
    this.call.lastOutputAt = this.now();
    this.markDirty();
  }

  /** Write soon: at once when the last write is a second old, else at most once a second. */
  private markDirty(): void {
    if (this.timer) return;
    const wait = Math.max(0, this.lastWrite + HEARTBEAT_INTERVAL_MS - this.now());
    if (wait === 0) {
      this.write();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.write();
    }, wait);
    this.timer.unref();
  }

  /** The agent call `key` completed, was interrupted or failed. */
  callEnded(key: string): void {
    if (this.call?.key !== key) return;
    this.call = null;
    this.write();
  }

  /** A lane of a parallel run started a step (its `effect.started` is journaled): the lane's previous step is over. */
  laneStep(lane: Omit<HeartbeatLane, 'lastOutputAt'>): void {
    this.lanes.set(lane.story, { ...lane, lastOutputAt: null });
    this.write();
  }

  /** The lanes at work now, by story. */
  currentLanes(): HeartbeatLane[] {
    return [...this.lanes.values()].sort((a, b) => a.story.localeCompare(b.story));
  }

  /** The lane step `key` ended. */
  laneStepEnded(key: string): void {
    const lane = [...this.lanes.values()].find((candidate) => candidate.key === key);
    if (lane === undefined) return;
    this.lanes.delete(lane.story);
    this.write();
  }

  /** The agent of lane step `key` wrote something. */
  laneOutput(key: string): void {
    const lane = [...this.lanes.values()].find((candidate) => candidate.key === key);
    if (lane === undefined) return;
    lane.lastOutputAt = this.now();
    this.markDirty();
  }

  /** Stop keeping it and remove the file (the run is no longer driven by this process). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    try {
      removeHeartbeat(this.path);
    } catch {
      // a hint: nothing to do
    }
  }

  private write(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.lastWrite = this.now();
    try {
      const lanes = this.lanes.size === 0 ? {} : { lanes: this.currentLanes().map((lane) => ({ ...lane })) };
      writeHeartbeat(this.path, { v: 1, run: this.run, yoke: this.yoke, call: this.call ? { ...this.call } : null, ...lanes, writtenAt: this.lastWrite });
    } catch {
      // a hint: status falls back to the journal and the lock
    }
  }
}
