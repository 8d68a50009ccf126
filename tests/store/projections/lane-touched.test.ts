// store/projections/lane-touched.ts (DESIGN §10): what each story's last lane attempt touched, and
// `replay --verify`'s check of the `touchedBefore` a parallel run journaled at its start.
import { describe, expect, it } from 'vitest';
import { LaneTouchedLedger, touchedDivergence } from '../../../store/projections/lane-touched.js';
import type { JournalRecord, StartedRecord } from '../../../store/journal/record.js';

const record = (seq: number, type: string, payload: unknown): JournalRecord => ({ v: 1, seq, id: `id${seq}`, ts: '2026-01-02T03:04:05.678Z', prev: 'p', run: 'R1', machine: 'stories', mv: 1, type, payload } as unknown as JournalRecord);
const scan = (seq: number, lane: string | null, changed: string[]): JournalRecord[] => [
  record(seq, 'effect.started', { key: `R1/${seq}/0`, kind: 'boundary.scan', params: { ...(lane === null ? {} : { lane }), baseline: 't' }, attempt: 1 }),
  record(seq + 1, 'effect.completed', { key: `R1/${seq}/0`, kind: 'boundary.scan', result: { changed } }),
];
const started = (input: Record<string, unknown>): StartedRecord => record(99, 'run.started', { mode: 'stories', input, argv: ['run'] }) as StartedRecord;

describe('lane touched files', () => {
  const ledger = new LaneTouchedLedger();
  for (const r of [...scan(1, 'S1', ['a.ts']), ...scan(3, null, ['everything.ts']), ...scan(5, 'S1', ['b.ts']), ...scan(7, 'S2', ['b.ts'])]) ledger.feed(r);

  it('keeps each story\'s last lane scan; a serial scan does not count', () => {
    expect(ledger.current()).toEqual({ S1: ['b.ts'], S2: ['b.ts'] });
  });

  it('replay --verify: a parallel run\'s journaled touchedBefore must be what the scans before it say; runs from before it was journaled are not checked', () => {
    const parallel = { config: { parallel: 2 }, laneRequeue: true };
    expect(touchedDivergence(ledger.current(), started({ ...parallel, touchedBefore: { S1: ['b.ts'], S2: ['b.ts'] } }))).toBeNull();
    expect(touchedDivergence(ledger.current(), started({ ...parallel, touchedBefore: { S1: ['b.ts'] } }))).toEqual({ journal: { S1: ['b.ts'] }, machine: { S1: ['b.ts'], S2: ['b.ts'] } });
    expect(touchedDivergence(ledger.current(), started(parallel))).toEqual({ journal: {}, machine: { S1: ['b.ts'], S2: ['b.ts'] } });
    expect(touchedDivergence(ledger.current(), started({ config: { parallel: 2 } }))).toBeNull();
    expect(touchedDivergence(ledger.current(), started({ config: {}, laneRequeue: true }))).toBeNull();
  });
});
