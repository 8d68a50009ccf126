// The lanes that hold a parallel run (store/projections/held-lanes.ts): what `yoke run` names when it
// pauses, and what decides whether it goes on. (That a checkpoint read gets the same answer as a read
// of every record is checked with the other projections in checkpoint-ledger.test.ts.)
import { describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../../store/journal/record.js';
import { heldLanes } from '../../../store/projections/held-lanes.js';

const RUN = 'R1';
let seq = 0;
const record = (type: string, payload: unknown, run: string = RUN): JournalRecord => ({ seq: ++seq, type, run, payload }) as unknown as JournalRecord;

/** A lane's agent call `key` in story `lane`, and how it ended (a classification, a tool hold). */
const started = (key: string, lane?: string, run?: string) => record('effect.started', { key, kind: 'agent.spawn', params: { role: 'worker', ...(lane === undefined ? {} : { lane }) }, attempt: 1 }, run);
const ended = (key: string, result: Record<string, unknown> = {}, run?: string) => record('effect.completed', { key, kind: 'agent.spawn', result: { outcome: 'exited', exitCode: 0, ...result } }, run);
const requested = (id: string, key: string) => record('tool.requested', { id, callId: `c-${id}`, key, agent: 'gemini', tool: 'run_shell_command', input: {}, scope: null });
const ruled = (id: string, ruling: 'pass' | 'hold') => record('tool.ruled', { id, ruling, class: 'network', classes: ['network'], source: { kind: 'table' }, message: '', enforced: true });
const retry = () => record('event', { cause: null, event: { type: 'AGENT_RETRY' } });

describe('heldLanes', () => {
  it('names each lane whose call ended held, in the order they came to hold, with every hold id its call made', () => {
    const records = [
      started('k1', 'S1'), started('k2', 'S2'), started('k3'),
      requested('h1', 'k1'), ruled('h1', 'hold'), requested('h2', 'k1'), ruled('h2', 'hold'), requested('p1', 'k1'), ruled('p1', 'pass'),
      ended('k2', { classification: 'auth-error', detail: 'no credentials' }),
      ended('k1', { classification: 'tool-held', detail: 'held h1', toolHold: { id: 'h1' } }),
      // a serial call's hold (no lane) is the machine's to name
      ended('k3', { classification: 'auth-error', detail: 'no credentials' }),
    ];
    expect(heldLanes(records, RUN)).toEqual([
      { story: 'S2', reason: 'auth-error', detail: 'no credentials', holds: [] },
      { story: 'S1', reason: 'tool-held', detail: 'held h1', holds: ['h1', 'h2'] },
    ]);
  });

  it('forgets every hold at AGENT_RETRY, and a lane whose next call ends well; another run\'s calls are not this run\'s', () => {
    const records = [
      started('k1', 'S1'), ended('k1', { classification: 'auth-error' }),
      started('k2', 'S2'), ended('k2', { classification: 'tool-ungated', detail: 'went around the gate' }),
      retry(),
      started('k3', 'S1'), ended('k3', { classification: 'auth-error' }),
      started('k4', 'S2'), ended('k4'),
      started('k5', 'S3', 'R0'), ended('k5', { classification: 'auth-error' }, 'R0'),
      started('k6', 'S4'), ended('k6', { classification: 'rate-limited' }),
    ];
    expect(heldLanes(records, RUN).map((lane) => [lane.story, lane.reason])).toEqual([['S1', 'auth-error']]);
    expect(heldLanes(records.slice(0, 4), RUN).map((lane) => [lane.story, lane.reason])).toEqual([['S1', 'auth-error'], ['S2', 'tool-ungated']]);
  });
});
