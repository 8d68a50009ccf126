// store/journal/record.ts: the hand-checked envelope accepts only what the schema accepts; the rest is
// worded by the schema.
import { describe, expect, it } from 'vitest';
import { GENESIS_HASH } from '../../../store/journal/journal-head.js';
import { checkRecord, envelopeSchema, payloadSchemas } from '../../../store/journal/record.js';

const good = () => ({
  v: 1, seq: 1, id: '01M8MP4KJGB0DE9ZJ7RFY6A3FY', ts: '2026-11-29T22:17:18.160Z', run: 'RUN', machine: 'loop', mv: 1,
  type: 'run.resumed', payload: { pid: 7 }, prev: GENESIS_HASH,
});

describe('checkRecord', () => {
  it('accepts a record as yoke writes it, payload checked by its schema', () => {
    expect(checkRecord(good())).toEqual({ record: good() });
    expect(checkRecord({ ...good(), payload: { pid: 'x' } })).toEqual({ error: expect.stringMatching(/^run\.resumed payload: pid: /) as unknown });
  });

  it('leaves anything unusual to the schema: extra keys are dropped, bad values are refused with a reason', () => {
    expect(checkRecord({ ...good(), extra: true })).toEqual({ record: good() });
    expect(checkRecord({ ...good(), id: 'not-a-ulid' })).toEqual({ error: 'id: not a ULID' });
    expect(checkRecord({ ...good(), prev: 'abc' })).toEqual({ error: 'prev: not a sha256 hex digest' });
    expect(checkRecord({ ...good(), v: 2 })).toEqual({ error: expect.stringMatching(/newer than this yoke understands/) as unknown });
    expect(checkRecord({ ...good(), type: 'run.bogus' })).toHaveProperty('error');
    expect(checkRecord({ ...good(), ts: 'yesterday' })).toHaveProperty('error');
    expect(checkRecord({ ...good(), seq: 0 })).toHaveProperty('error');
  });

  it('agrees with the schema on timestamps that look right but are not real instants', () => {
    for (const ts of ['2026-02-29T00:00:00.000Z', '2024-02-29T00:00:00.000Z', '2026-04-31T00:00:00.000Z', '2026-13-01T00:00:00.000Z',
      '2026-00-10T00:00:00.000Z', '2026-01-00T00:00:00.000Z', '2026-01-01T24:00:00.000Z', '2026-01-01T23:60:00.000Z', '2026-01-01T23:59:60.000Z', '1900-02-29T00:00:00.000Z', '2000-02-29T00:00:00.000Z']) {
      const bySchema = envelopeSchema.safeParse({ ...good(), ts }).success;
      expect('record' in checkRecord({ ...good(), ts }), ts).toBe(bySchema);
    }
  });
  it('reads the hot payloads (event, effect, spawn) exactly as their schemas do, hand-checked or not', () => {
    const payloads: [keyof typeof payloadSchemas, unknown][] = [
      ['event', { cause: 'R/1/0', event: { type: 'DONE', result: { a: 1 } } }],
      ['event', { cause: null, event: { type: 'START' } }],
      ['event', { cause: '', event: { type: 'START' } }],
      ['event', { cause: null, event: { kind: 'no type' } }],
      ['event', { cause: null, event: { type: 'START' }, extra: 1 }],
      ['effect.started', { key: 'R/1/0', kind: 'agent.call', params: { prompt: 'x' }, attempt: 1 }],
      ['effect.started', { key: 'R/1/0', kind: 'agent.call', params: null, attempt: 0 }],
      ['effect.started', { key: 'R/1/0', kind: 'agent.call', params: {}, attempt: 1.5 }],
      ['effect.started', { key: 'R/1/0', kind: 'agent.call', attempt: 1, extra: 'dropped' }],
      ['effect.completed', { key: 'R/1/0', kind: 'agent.call', result: [1, 2] }],
      ['effect.completed', { key: 7, kind: 'agent.call', result: 1 }],
      ['process.spawned', { key: 'R/1/0', pid: 42, startTime: null }],
      ['process.spawned', { key: 'R/1/0', pid: 42, startTime: 5 }],
      ['process.spawned', { key: 'R/1/0', pid: 4.2, startTime: '1' }],
    ];
    for (const [type, payload] of payloads) {
      const bySchema = payloadSchemas[type].safeParse(structuredClone(payload));
      const checked = checkRecord({ ...good(), type, payload: structuredClone(payload) });
      if (bySchema.success) expect(checked, JSON.stringify(payload)).toEqual({ record: { ...good(), type, payload: bySchema.data } });
      else expect(checked, JSON.stringify(payload)).toHaveProperty('error');
    }
  });
});
