// store/projections/verify-run.ts: a recorded run verifies; every kind of semantic tampering is caught at the
// right seq with both sides, and a run from an unknown machine version is refused.
import { beforeAll, describe, expect, it } from 'vitest';
import { findRun } from '../../../store/fold/journal-runs.js';
import type { JournalRecord } from '../../../store/journal/record.js';
import { verifyRun } from '../../../store/projections/verify-run.js';
import { recordLoopRun } from '../../support/memory-recording.js';

let records: JournalRecord[];

beforeAll(async () => {
  records = await recordLoopRun((world) => {
    world.scriptAgent({ notes: 'IN_PROGRESS', changed: ['src/a.ts'], usage: null });
    world.scriptAgent({ notes: 'DONE', changed: ['src/a.ts'], usage: null });
    world.scriptGuard(1);
  });
});

/** One change to the journal: at the records `pick` chooses, set the value at a dotted `path`. */
interface Edit {
  pick: (record: JournalRecord) => boolean;
  path: string;
  value: unknown;
}

/** A deep copy of the journal with `edits` applied (the chain is not a concern here: records, not lines). */
function tampered(...edits: Edit[]): JournalRecord[] {
  return (JSON.parse(JSON.stringify(records)) as JournalRecord[]).map((record) => {
    for (const edit of edits) if (edit.pick(record)) setPath(record, edit.path, edit.value);
    return record;
  });
}

function setPath(target: object, path: string, value: unknown): void {
  const keys = path.split('.');
  const last = keys.pop() as string;
  let node = target as Record<string, unknown>;
  for (const key of keys) node = node[key] as Record<string, unknown>;
  node[last] = value;
}

const atSeq = (seq: number) => (record: JournalRecord) => record.seq === seq;

function verify(journal: JournalRecord[]) {
  return verifyRun(journal, findRun(journal));
}

const firstSeq = (pick: (record: JournalRecord) => boolean): number => records.find(pick)?.seq ?? -1;
const isCheckStart = (r: JournalRecord) => r.type === 'effect.started' && r.payload.kind === 'check.run';
const isCheckEvent = (r: JournalRecord) => r.type === 'event' && r.payload.event.type === 'CHECK_FINISHED';

describe('verifyRun', () => {
  it('verifies an untouched run: every request, every event and the end agree', () => {
    const verdict = verify(records);
    expect(verdict).toMatchObject({ status: 'verified', finished: true, divergence: null });
    expect(verdict.effects).toBe(records.filter((r) => r.type === 'effect.started').length);
    expect(verdict.events).toBeGreaterThan(10);
  });

  it('catches changed params at their effect.started, with the path and both sides', () => {
    const seq = firstSeq(isCheckStart);
    const verdict = verify(tampered({ pick: atSeq(seq), path: 'payload.params.command', value: 'npm run lint' }));
    expect(verdict.status).toBe('diverged');
    expect(verdict.divergence).toMatchObject({ seq, record: 'effect.started', path: 'params.command', journal: 'npm run lint', machine: 'npm test' });
  });

  it('catches a changed config in run.started at the first request it changes (today\'s machine decides otherwise)', () => {
    const verdict = verify(tampered({ pick: (r) => r.type === 'run.started', path: 'payload.input.config.guards.0.command', value: 'make test' }));
    expect(verdict.divergence).toMatchObject({ seq: firstSeq(isCheckStart), path: 'params.command', journal: 'npm test', machine: 'make test' });
  });

  it('catches an event that is not what its effect\'s journaled result produces', () => {
    const seq = firstSeq(isCheckEvent);
    const verdict = verify(tampered({ pick: atSeq(seq), path: 'payload.event.result.exitCode', value: 0 }));
    expect(verdict.divergence).toMatchObject({ seq, record: 'event', path: 'result.exitCode', journal: 0, machine: 1 });
  });

  it('catches a consistently changed result at the next decision it changes', () => {
    const completed = firstSeq((r) => r.type === 'effect.completed' && r.payload.kind === 'check.run');
    const event = firstSeq(isCheckEvent);
    const verdict = verify(tampered(
      { pick: atSeq(completed), path: 'payload.result.exitCode', value: 0 },
      { pick: atSeq(event), path: 'payload.event.result.exitCode', value: 0 },
    ));
    // With the guard passing, today's machine writes another guard-results.md than the journal did.
    expect(verdict.divergence).toMatchObject({ record: 'effect.started', path: 'params.content' });
    expect(verdict.divergence?.journal).toMatch(/FAIL \(exit 1/);
    expect(verdict.divergence?.machine).toMatch(/PASS|pass/);
  });

  it('catches a run.finished that does not match where the machine ends', () => {
    const verdict = verify(tampered({ pick: (r) => r.type === 'run.finished', path: 'payload.exitCode', value: 1 }));
    expect(verdict.divergence).toMatchObject({ record: 'run.finished', path: 'exitCode', journal: 1, machine: 0 });
  });

  it('catches an interruption journaled for an effect whose policy retries it', () => {
    const completed = records.find((r) => r.type === 'effect.completed' && r.payload.kind === 'notes.read');
    if (completed?.type !== 'effect.completed') throw new Error('no notes.read completed');
    const journal = tampered(
      { pick: atSeq(completed.seq), path: 'type', value: 'effect.interrupted' },
      { pick: atSeq(completed.seq), path: 'payload', value: { key: completed.payload.key, kind: 'notes.read', reason: 'crash' } },
    );
    expect(verify(journal).divergence?.what).toMatch(/retries or reconciles it/);
  });

  it('refuses a run recorded by a machine version this yoke does not have', () => {
    const verdict = verify(tampered({ pick: (r) => r.run !== null, path: 'mv', value: 99 }));
    expect(verdict.status).toBe('refused');
    expect(verdict.refusal).toMatch(/loop machine v99, but this yoke can fold v\d+ only/);
  });
  it('still catches a duplicated event although the streamed fold forgot the settled effect', () => {
    const event = records.find(isCheckEvent);
    if (!event) throw new Error('no CHECK_FINISHED event');
    const copy = JSON.parse(JSON.stringify(records)) as JournalRecord[];
    const at = copy.findIndex((r) => r.seq === event.seq);
    const duplicate = { ...(JSON.parse(JSON.stringify(event)) as JournalRecord) };
    copy.splice(at + 1, 0, duplicate);
    const renumbered = copy.map((record, index) => ({ ...record, seq: index + 1 })) as JournalRecord[];
    const verdict = verify(renumbered);
    expect(verdict.status).toBe('diverged');
    expect(verdict.divergence).toMatchObject({ seq: event.seq + 1, record: 'event', key: event.type === 'event' ? event.payload.cause : null });
  });
});
