// The heartbeat: a small file the running yoke keeps up to date while an agent works, so `yoke
// status` can tell a working agent from a silent, stuck or dead one without touching the journal.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JOURNAL_LAYOUT } from '../../config/workspace-layout.js';

/** The agent call in flight, as the heartbeat describes it. */
export interface HeartbeatCall {
  /** the effect key of the `agent.spawn` */
  key: string;
  role: string;
  iteration: number;
  /** when the call started (ms since the epoch) */
  startedAt: number;
  /** the call's idle timeout (0 = off) */
  idleTimeoutMs: number;
  /** the agent's process group leader, once journaled */
  pid: number | null;
  startTime: string | null;
  /** the last time the agent wrote anything (null: nothing yet) */
  lastOutputAt: number | null;
}

/** What one lane of a parallel run is doing (DESIGN §10), as the heartbeat describes it. */
export interface HeartbeatLane {
  story: string;
  /** the effect key of the lane's step in flight */
  key: string;
  /** `worker agent`, `guard tests`, … */
  phase: string;
  startedAt: number;
  /** an agent call's last output (null: nothing yet, or not an agent call) */
  lastOutputAt: number | null;
  agent: boolean;
}

/**
 * What the heartbeat file says. It is a hint, never the truth: the journal is. A missing, stale or
 * garbled heartbeat only makes `yoke status` say less.
 */
export interface Heartbeat {
  v: 1;
  run: string;
  /** the yoke process keeping it (pid + kernel start time) */
  yoke: { pid: number; startTime: string | null };
  call: HeartbeatCall | null;
  /** a parallel run's lanes at work, by story (absent: not a parallel run, or none at work) */
  lanes?: HeartbeatLane[];
  /** when the file was written (ms since the epoch) */
  writtenAt: number;
}

/** Where the heartbeat lives in a workspace. */
export function heartbeatPath(journalDir: string): string {
  return join(journalDir, JOURNAL_LAYOUT.heartbeat);
}

/** Read the heartbeat; null when it is missing or not one. */
export function readHeartbeat(path: string): Heartbeat | null {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
  return isHeartbeat(value) ? value : null;
}

/** Replace the heartbeat atomically (temp file + rename; no fsync: losing one is harmless). */
export function writeHeartbeat(path: string, heartbeat: Heartbeat): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(heartbeat)}\n`);
  renameSync(temporary, path);
}

/** Remove the heartbeat (a finished yoke leaves none behind). */
export function removeHeartbeat(path: string): void {
  rmSync(path, { force: true });
}

function isHeartbeat(value: unknown): value is Heartbeat {
  if (typeof value !== 'object' || value === null) return false;
  const h = value as Partial<Heartbeat>;
  if (h.v !== 1 || typeof h.run !== 'string' || typeof h.writtenAt !== 'number') return false;
  if (typeof h.yoke !== 'object' || h.yoke === null || typeof h.yoke.pid !== 'number') return false;
  if (h.lanes !== undefined && !(Array.isArray(h.lanes) && h.lanes.every(isLane))) return false;
  if (h.call === null) return true;
  const call = h.call as Partial<HeartbeatCall> | undefined;
  return typeof call === 'object' && typeof call.key === 'string' && typeof call.startedAt === 'number'
    && typeof call.idleTimeoutMs === 'number' && (call.pid === null || typeof call.pid === 'number')
    && (call.lastOutputAt === null || typeof call.lastOutputAt === 'number');
}

function isLane(value: unknown): value is HeartbeatLane {
  const lane = value as Partial<HeartbeatLane> | null;
  return typeof lane === 'object' && lane !== null && typeof lane.story === 'string' && typeof lane.key === 'string' && typeof lane.phase === 'string'
    && typeof lane.startedAt === 'number' && (lane.lastOutputAt === null || typeof lane.lastOutputAt === 'number') && typeof lane.agent === 'boolean';
}
