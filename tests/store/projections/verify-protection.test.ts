// store/projections/verify-protection.ts: `replay --verify` re-derives the protection decisions: an
// edited protection record is caught, and so is a run (or a refresh it was told of) that protects
// another baseline than the one in force.
import { describe, expect, it } from 'vitest';
import { makeProtection, type Protection } from '../../../machines/protect/protection.js';
import type { JournalRecord, StartedRecord } from '../../../store/journal/record.js';
import { ProtectionChecker } from '../../../store/projections/verify-protection.js';

const FILE = { path: 'tests/a.test.js', mode: 0o100644, sha256: 'a'.repeat(64) };
const BASELINE = makeProtection(['tests/'], [FILE]);
const REFRESHED = makeProtection(['tests/'], [{ ...FILE, sha256: 'b'.repeat(64) }]);

let seq = 0;
function record<T extends JournalRecord['type']>(type: T, payload: Extract<JournalRecord, { type: T }>['payload'], run: string | null = null): Extract<JournalRecord, { type: T }> {
  seq += 1;
  return { v: 1, seq, id: '01J00000000000000000000000', ts: '2026-01-01T00:00:00.000Z', run, machine: run === null ? null : 'loop', mv: run === null ? null : 1, type, payload, prev: '0'.repeat(64) } as Extract<JournalRecord, { type: T }>;
}

const baseline = (protection: Protection) => record('protect.baseline', { protection });
const refreshed = (protection: Protection) => record('protect.refreshed', { protection, previous: BASELINE.digest, why: null, changes: [] });
const started = (protection?: Protection): StartedRecord => record('run.started', { mode: 'loop', input: protection === undefined ? {} : { protection }, argv: ['run'] }, 'RUN1');
const told = (protection: Protection) => record('event', { cause: null, event: { type: 'PROTECTION_REFRESHED', protection } }, 'RUN1');

function checker(...records: JournalRecord[]): ProtectionChecker {
  const check = new ProtectionChecker();
  for (const item of records) check.observe(item);
  return check;
}

describe('ProtectionChecker', () => {
  it('agrees with a sound journal: the run protects the baseline in force, and is told of the refresh in force', () => {
    const check = checker(baseline(BASELINE));
    expect(check.startDivergence(started(BASELINE))).toBeNull();
    check.observe(refreshed(REFRESHED));
    expect(check.check(told(REFRESHED))).toBeNull();
    expect(check.forged).toBeNull();
    // a journal without protection: a run without it agrees
    expect(new ProtectionChecker().startDivergence(started())).toBeNull();
  });

  it('an edited baseline record (its digest no longer matches its files) forges the journal', () => {
    const edited = baseline({ ...BASELINE, files: [{ ...FILE, sha256: 'e'.repeat(64) }] });
    const check = checker(edited);
    expect(check.forged).toMatchObject({ seq: edited.seq, record: 'protect.baseline', path: 'payload.protection.digest' });
    expect(check.forged?.what).toContain('was edited after it was written');
  });

  it('a run protecting another baseline than the one in force diverges at its start, naming the first difference', () => {
    const check = checker(baseline(BASELINE));
    const start = started(REFRESHED);
    expect(check.startDivergence(start)).toMatchObject({
      seq: start.seq, record: 'run.started', path: 'payload.input.protection.digest', journal: REFRESHED.digest, machine: BASELINE.digest,
    });
    // and one that dropped its protection while a baseline was in force
    expect(check.startDivergence(started())).toMatchObject({ path: 'payload.input.protection', journal: null, machine: BASELINE });
  });

  it('a refresh the run was told of that is not the baseline in force diverges at that event', () => {
    const check = checker(baseline(BASELINE));
    const event = told(REFRESHED);
    expect(check.check(event)).toMatchObject({ seq: event.seq, record: 'event', path: 'payload.event.protection.digest' });
  });
});
