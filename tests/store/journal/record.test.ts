// store/journal/record.ts: the hand-checked envelope accepts only what the schema accepts; the rest is
// worded by the schema.
import { describe, expect, it } from 'vitest';
import { GENESIS_HASH } from '../../../store/journal/journal-head.js';
import { checkRecord, envelopeSchema } from '../../../store/journal/record.js';

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
});
