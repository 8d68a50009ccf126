// store/liveness/run-liveness.ts: the verdict from the journal's summary, the lock and the heartbeat.
import { describe, expect, it } from 'vitest';
import type { Heartbeat } from '../../../store/liveness/heartbeat.js';
import { judgeLiveness, SILENT_AFTER_MS, type LivenessFacts } from '../../../store/liveness/run-liveness.js';

const RUN = '01BENCHRVN0000000000000000';
const NOW = 1_800_000_000_000;

function facts(over: Partial<LivenessFacts> & { alive?: number[] } = {}): LivenessFacts {
  const alive = new Set(over.alive ?? [100, 200]);
  return {
    summary: { run: RUN, status: 'unfinished', lastStop: 'stopped without a trace (crash or kill -9)' },
    lock: { pid: 100, startTime: '1', command: 'yoke run' },
    heartbeat: heartbeat(NOW - 5000),
    now: NOW,
    isAlive: (pid) => alive.has(pid),
    ...over,
  };
}

function heartbeat(lastOutputAt: number | null, idleTimeoutMs = 20 * 60_000): Heartbeat {
  return {
    v: 1, run: RUN, yoke: { pid: 100, startTime: '1' }, writtenAt: NOW,
    call: { key: 'k', role: 'worker', iteration: 3, startedAt: NOW - 600_000, idleTimeoutMs, pid: 200, startTime: '2', lastOutputAt },
  };
}

describe('judgeLiveness', () => {
  it('running, silent, possibly stuck by the agent silence against a minute and the idle timeout', () => {
    expect(judgeLiveness(facts())).toMatchObject({ state: 'running', yokePid: 100, call: { pid: 200, alive: true, silentMs: 5000 } });
    expect(judgeLiveness(facts({ heartbeat: heartbeat(NOW - SILENT_AFTER_MS) })).state).toBe('silent');
    expect(judgeLiveness(facts({ heartbeat: heartbeat(NOW - 20 * 60_000 - 1) })).state).toBe('possibly-stuck');
    // no output yet: silence counts from the call's start
    expect(judgeLiveness(facts({ heartbeat: heartbeat(null) })).call?.silentMs).toBe(600_000);
    // idle timeout off: never stuck
    expect(judgeLiveness(facts({ heartbeat: heartbeat(NOW - 3_600_000, 0) })).state).toBe('silent');
  });

  it('dead when the recorded yoke is gone, whether the lock or only the heartbeat names it; never running', () => {
    expect(judgeLiveness(facts({ alive: [200] }))).toMatchObject({ state: 'dead', yokePid: 100, call: { alive: true } });
    expect(judgeLiveness(facts({ alive: [], lock: null }))).toMatchObject({ state: 'dead', yokePid: 100, call: { alive: false } });
    // a crash with no lock and no heartbeat left
    expect(judgeLiveness(facts({ alive: [], lock: null, heartbeat: null }))).toMatchObject({ state: 'dead', yokePid: null });
  });

  it('a heartbeat of another run or another yoke is ignored; a missing one still gives running from the lock', () => {
    expect(judgeLiveness(facts({ heartbeat: { ...heartbeat(NOW), run: 'OTHER' } }))).toMatchObject({ state: 'running', call: null });
    expect(judgeLiveness(facts({ heartbeat: { ...heartbeat(NOW - 3_600_000), yoke: { pid: 999, startTime: '9' } } }))).toMatchObject({ state: 'running', call: null });
    expect(judgeLiveness(facts({ heartbeat: null }))).toMatchObject({ state: 'running', yokePid: 100, call: null });
  });

  it('stopped after a clean stop, finished and abandoned as the journal says', () => {
    const clean = { run: RUN, status: 'unfinished' as const, lastStop: 'interrupted by SIGINT' };
    expect(judgeLiveness(facts({ summary: clean, lock: null, heartbeat: null })).state).toBe('stopped');
    // a lock left by another command (a stash) does not make the run dead
    expect(judgeLiveness(facts({ summary: clean, lock: { pid: 5, startTime: '5', command: 'yoke stash' }, heartbeat: null })).state).toBe('stopped');
    expect(judgeLiveness(facts({ summary: { run: RUN, status: 'finished', lastStop: null } })).state).toBe('finished');
    expect(judgeLiveness(facts({ summary: { run: RUN, status: 'abandoned', lastStop: null } })).state).toBe('abandoned');
  });
});
