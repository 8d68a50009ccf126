// store/liveness/heartbeat-keeper.ts: call starts and ends are written at once, output at most once a second.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { HEARTBEAT_INTERVAL_MS, HeartbeatKeeper } from '../../../store/liveness/heartbeat-keeper.js';
import { readHeartbeat } from '../../../store/liveness/heartbeat.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function heartbeatFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'yoke-heartbeat-'));
  dirs.push(dir);
  return join(dir, 'heartbeat.json');
}

describe('HeartbeatKeeper', () => {
  it('names this yoke by pid and start time, follows the call, and removes the file on stop', () => {
    const path = heartbeatFile();
    const keeper = new HeartbeatKeeper(path, 'RUN', () => 1000);
    expect(readHeartbeat(path)).toMatchObject({ v: 1, run: 'RUN', yoke: { pid: process.pid }, call: null });
    expect(readHeartbeat(path)?.yoke.startTime).toMatch(/^\d+$/);
    keeper.callStarted({ key: 'k1', role: 'worker', iteration: 2, startedAt: 1000, idleTimeoutMs: 60_000 });
    keeper.agentSpawned('k1', 4242, '77');
    expect(readHeartbeat(path)?.call).toEqual({ key: 'k1', role: 'worker', iteration: 2, startedAt: 1000, idleTimeoutMs: 60_000, pid: 4242, startTime: '77', lastOutputAt: null });
    keeper.agentSpawned('other', 1, '1'); // not the call in flight: ignored
    expect(readHeartbeat(path)?.call?.pid).toBe(4242);
    keeper.callEnded('k1');
    expect(readHeartbeat(path)?.call).toBeNull();
    keeper.stop();
    expect(existsSync(path)).toBe(false);
  });

  it('keeps one line per lane of a parallel run: a lane\'s next step replaces its last, an ended step goes', async () => {
    const path = heartbeatFile();
    let now = 1000;
    const keeper = new HeartbeatKeeper(path, 'RUN', () => now);
    keeper.laneStep({ story: 'S2', key: 'k2', phase: 'worker agent', startedAt: 1000, agent: true });
    keeper.laneStep({ story: 'S1', key: 'k1', phase: 'guard tree', startedAt: 1000, agent: false });
    expect(readHeartbeat(path)?.lanes?.map((lane) => `${lane.story} ${lane.phase}`)).toEqual(['S1 guard tree', 'S2 worker agent']);
    now = 5000;
    keeper.laneOutput('k2');
    await sleep(HEARTBEAT_INTERVAL_MS + 100);
    expect(readHeartbeat(path)?.lanes?.find((lane) => lane.story === 'S2')?.lastOutputAt).toBe(5000);
    keeper.laneStep({ story: 'S1', key: 'k3', phase: 'worker agent', startedAt: 5000, agent: true });
    keeper.laneStepEnded('k2');
    expect(readHeartbeat(path)?.lanes).toEqual([{ story: 'S1', key: 'k3', phase: 'worker agent', startedAt: 5000, lastOutputAt: null, agent: true }]);
    keeper.laneStepEnded('k3');
    expect(readHeartbeat(path)?.lanes).toBeUndefined();
    keeper.stop();
  });

  it('a burst of output is written once, within a second, with the time of the latest output', async () => {
    const path = heartbeatFile();
    let now = 50_000;
    const keeper = new HeartbeatKeeper(path, 'RUN', () => now);
    keeper.callStarted({ key: 'k', role: 'worker', iteration: 1, startedAt: now, idleTimeoutMs: 0 });
    const before = statSync(path).ino;
    for (let i = 0; i < 200; i += 1) {
      now += 1;
      keeper.output();
    }
    // nothing written yet: the last write was less than a second ago
    expect(statSync(path).ino).toBe(before);
    expect(readHeartbeat(path)?.call?.lastOutputAt).toBeNull();
    await sleep(HEARTBEAT_INTERVAL_MS + 200);
    expect(readHeartbeat(path)?.call?.lastOutputAt).toBe(50_200);
    keeper.stop();
  });
});
