// store/session/plan-run.ts: what `yoke run` journals before it drives, decided from records alone.
import { describe, expect, it } from 'vitest';
import { LOOP_MACHINE_VERSION } from '../../../machines/lifecycles/loop.js';
import { startOf } from '../../../store/fold/journal-runs.js';
import { GENESIS_HASH } from '../../../store/journal/journal-head.js';
import { SCHEMA_VERSION, type JournalRecord, type RecordDraft } from '../../../store/journal/record.js';
import { journaledConfig, planRun, type NewRun, type RunRequest } from '../../../store/session/plan-run.js';
import { YokeError } from '../../../errors/yoke-error.js';
import { memoryLoopInput } from '../../support/memory-input.js';

const OLD = '01JPLANRUN0LD0000000000000';
const NEW = '01JPLANRUNNEW0000000000000';

/** Records as a journal holds them (seq in order; the chain is not what these tests are about). */
function journal(drafts: RecordDraft[]): JournalRecord[] {
  return drafts.map((draft, i) => ({ v: SCHEMA_VERSION, seq: i + 1, id: `01JPLANRUNRECORD00000000${String(i).padStart(2, '0')}`, ts: '2026-01-02T03:04:05.678Z', prev: GENESIS_HASH, ...draft }));
}

const loop = { run: OLD, machine: 'loop', mv: LOOP_MACHINE_VERSION };
const started = (max = 5): RecordDraft => ({ ...loop, type: 'run.started', payload: { mode: 'loop', input: memoryLoopInput([`max-iterations ${max}`]), argv: ['run'] } });
const finished: RecordDraft = { ...loop, type: 'run.finished', payload: { state: 'done', exitCode: 0, reason: 'done' } };
const abandoned: RecordDraft = { ...loop, type: 'run.abandoned', payload: { reason: 'yoke run --fresh' } };
const newRun = (max = 3): NewRun => ({ lifecycle: { name: 'loop', version: LOOP_MACHINE_VERSION }, input: memoryLoopInput([`max-iterations ${max}`]), argv: ['run'] });
const request = (over: Partial<RunRequest> = {}): RunRequest => ({ fresh: false, start: newRun(), runId: NEW, pid: 4242, ...over });

describe('planRun', () => {
  it('issue 20 item 3: refuses to start after a run.finished that today\'s machine never reaches, naming the seq; --fresh leaves it behind', () => {
    const records = journal([started(), finished]);
    expect(() => planRun(records, request({ locate: (seq) => `journal.jsonl:${seq}` }))).toThrow(YokeError);
    expect(() => planRun(records, request({ locate: (seq) => `journal.jsonl:${seq}` }))).toThrow(/^journal\.jsonl:2: record 2 \(run\.finished\) contradicts run .*yoke run --fresh/);
    expect(planRun(records, request({ fresh: true })).kind).toBe('start');
  });

  it('starts a new run when nothing is unfinished, with the given id (also in its input) and the argv it was started with', () => {
    const plan = planRun(journal([started(), abandoned]), request());
    expect(plan).toMatchObject({ kind: 'start', run: NEW, mode: 'loop', abandoned: null, maxIterations: 3 });
    expect(plan.drafts).toEqual([{ type: 'run.started', run: NEW, machine: 'loop', mv: LOOP_MACHINE_VERSION, payload: { mode: 'loop', input: { ...newRun().input, run: NEW, toolCallProof: true }, argv: ['run'] } }]);
  });

  it('journals the context layer in the new run\'s input only when .yoke/context/ exists (DESIGN §9), with the run id', () => {
    const [withLayer] = planRun([], request({ start: { ...newRun(), contextLayer: true } })).drafts;
    expect(withLayer?.type === 'run.started' && (withLayer.payload.input as { contextLayer?: unknown }).contextLayer).toEqual({ run: NEW, inject: true });
    const [without] = planRun([], request({ start: { ...newRun(), contextLayer: false } })).drafts;
    expect(without?.type === 'run.started' && without.payload.input).not.toHaveProperty('contextLayer');
  });

  it('applies --max-iterations to a new run\'s config', () => {
    const plan = planRun([], request({ maxIterations: 9 }));
    expect(plan).toMatchObject({ kind: 'start', maxIterations: 9 });
    const [draft] = plan.drafts;
    expect(draft?.type === 'run.started' && (draft.payload.input as { config: { maxIterations: number } }).config.maxIterations).toBe(9);
  });

  it('resumes the unfinished run: run.resumed names this process, the fold says where it stands', () => {
    const plan = planRun(journal([started()]), request({ start: null }));
    expect(plan).toMatchObject({ kind: 'resume', run: OLD, iteration: 1 });
    if (plan.kind !== 'resume') throw new Error('expected a resume');
    expect(plan.started.seq).toBe(1);
    expect(plan.state).toBe('preparing');
    expect(plan.fold.run).toBe(OLD);
    expect(plan.drafts).toEqual([{ ...loop, type: 'run.resumed', payload: { pid: 4242 } }]);
  });

  it('raises (or lowers) the resumed run\'s cap with SET_MAX_ITERATIONS only when --max-iterations changes it', () => {
    const changed = planRun(journal([started(5)]), request({ start: null, maxIterations: 8 }));
    expect(changed.drafts.map((draft) => (draft.type === 'event' ? draft.payload.event : draft.type))).toEqual(['run.resumed', { type: 'SET_MAX_ITERATIONS', max: 8 }]);
    const same = planRun(journal([started(5)]), request({ start: null, maxIterations: 5 }));
    expect(same.drafts.map((draft) => draft.type)).toEqual(['run.resumed']);
  });

  it('--fresh abandons the unfinished run first, then starts the new one', () => {
    const plan = planRun(journal([started()]), request({ fresh: true }));
    expect(plan).toMatchObject({ kind: 'start', run: NEW, abandoned: OLD });
    expect(plan.drafts.map((draft) => [draft.type, draft.run])).toEqual([['run.abandoned', OLD], ['run.started', NEW]]);
    expect(plan.drafts[0]).toEqual({ ...loop, type: 'run.abandoned', payload: { reason: 'yoke run --fresh' } });
  });

  it('refuses to resume a run recorded by a machine version this yoke lacks (exit 3); --fresh abandons it', () => {
    const future = journal([{ ...started(), mv: 99 }]);
    expect(() => planRun(future, request({ start: null }))).toThrow(YokeError);
    expect(() => planRun(future, request({ start: null }))).toThrow(/machine v99/);
    expect(planRun(future, request({ fresh: true })).drafts[0]).toMatchObject({ type: 'run.abandoned', mv: 99 });
  });

  it('is pure: the records it was given are left as they were', () => {
    const records = journal([started()]);
    const copy = structuredClone(records);
    planRun(records, request({ fresh: true }));
    planRun(records, request({ start: null, maxIterations: 2 }));
    expect(records).toEqual(copy);
  });
});

describe('journaledConfig and startOf', () => {
  it('the unfinished run\'s journaled config, none when every run ended', () => {
    expect(journaledConfig(journal([started(7)]))?.maxIterations).toBe(7);
    expect(journaledConfig(journal([started(7), finished]))).toBeNull();
  });

  it('startOf finds a run\'s run.started, and refuses a run without one as an edited journal', () => {
    const records = journal([started(), finished]);
    expect(startOf(records, OLD).seq).toBe(1);
    const error = (() => {
      try {
        startOf(records, 'NOPE');
      } catch (caught) {
        return caught as YokeError;
      }
      throw new Error('expected a refusal');
    })();
    expect(error.code).toBe('workspace');
    expect(error.message).toMatch(/run NOPE has records but no run\.started/);
  });
});
