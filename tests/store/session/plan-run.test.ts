// store/session/plan-run.ts: what `yoke run` journals before it drives, decided from records alone.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { parseConfig } from '../../../config/parse-config.js';
import type { Config } from '../../../config/types.js';
import { effectiveConfigDigest } from '../../../effects/acceptance/config-digest.js';
import { LOOP_MACHINE_VERSION } from '../../../machines/lifecycles/loop.js';
import { LIFECYCLE_REGISTRY } from '../../../machines/lifecycles/registry.js';
import { STORIES_MACHINE_VERSION, storiesLifecycle } from '../../../machines/lifecycles/stories.js';
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
const request = (over: Partial<RunRequest> = {}): RunRequest => ({ fresh: false, start: newRun(), runId: NEW, pid: 4242, readLoopFile: () => null, ...over });

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
    expect(plan.drafts).toEqual([{ type: 'run.started', run: NEW, machine: 'loop', mv: LOOP_MACHINE_VERSION, payload: { mode: 'loop', input: { ...newRun().input, run: NEW, toolCallProof: true, configDigest: effectiveConfigDigest(newRun().input.config) }, argv: ['run'] } }]);
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
    // the digest its check reports carry is the config the run has, --max-iterations included
    const input = draft?.type === 'run.started' ? draft.payload.input as { config: Config; configDigest: string } : null;
    expect(input?.configDigest).toBe(input && effectiveConfigDigest(input.config));
    expect(input?.configDigest).not.toBe(effectiveConfigDigest(newRun().input.config));
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

// ---- a stories run, resumed after the user touched prd.yaml or gave another --parallel ----------
const PRD = 'stories:\n  - id: S1\n    title: First\n    acceptance: [it works]\n    passes: true\n';
const reader = (files: Record<string, string>) => (name: string): string | null => files[name] ?? null;
function storiesStarted(lines: readonly string[] = []): RecordDraft {
  const { config } = parseConfig(`${['mode stories', 'agent cmd ./agent.sh', 'tool-control off', ...lines].join('\n')}\n`, '.loop/yoke.conf', LIFECYCLE_REGISTRY);
  if (config === null) throw new Error('the stories config does not parse');
  const input = storiesLifecycle.input(config, (path) => `<${path}>`, '/project/.loop', reader({ 'prd.yaml': PRD }));
  return { run: OLD, machine: 'stories', mv: STORIES_MACHINE_VERSION, type: 'run.started', payload: { mode: 'stories', input, argv: ['run'] } };
}
const events = (plan: ReturnType<typeof planRun>) => plan.drafts.map((draft) => (draft.type === 'event' ? draft.payload.event.type : draft.type));

describe('planRun on a resumed stories run', () => {
  it('journals nothing when prd.yaml is as the run left it', () => {
    const plan = planRun(journal([storiesStarted()]), request({ start: null, readLoopFile: reader({ 'prd.yaml': PRD }) }));
    expect(plan).toMatchObject({ kind: 'resume', writes: {}, blobs: [], notices: [] });
    expect(events(plan)).toEqual(['run.resumed']);
  });

  it('refuses an invalid prd.yaml with its file:line before journaling anything (exit 2)', () => {
    const broken = `${PRD}  - id: S1\n    title: Again\n    acceptance: [x]\n`;
    const refuse = () => planRun(journal([storiesStarted()]), request({ start: null, readLoopFile: reader({ 'prd.yaml': broken }) }));
    expect(refuse).toThrow(YokeError);
    expect(refuse).toThrow(/^\.loop\/prd\.yaml:6:\d+: error: story id `S1` is used twice/);
  });

  it('a story added: STORIES_CHANGED after run.resumed, naming the new prd.yaml by the blob it keeps', () => {
    const text = `${PRD}  - id: S2\n    title: Second\n    acceptance: [it works too]\n`;
    const plan = planRun(journal([storiesStarted()]), request({ start: null, maxIterations: 9, readLoopFile: reader({ 'prd.yaml': text }) }));
    if (plan.kind !== 'resume') throw new Error('expected a resume');
    expect(events(plan)).toEqual(['run.resumed', 'SET_MAX_ITERATIONS', 'STORIES_CHANGED']);
    expect(plan.drafts[2]).toMatchObject({ run: OLD, machine: 'stories', payload: { cause: null, event: { added: ['S2'], reopened: [], prdBlob: createHash('sha256').update(text).digest('hex') } } });
    expect(plan).toMatchObject({ writes: {}, blobs: [text], notices: [{ level: 'progress', text: 'prd.yaml changed: added S2' }] });
  });

  it('a passed story whose criteria changed is reopened: prd.yaml is rewritten with passes: false first, and the user warned', () => {
    const text = PRD.replace('acceptance: [it works]', 'acceptance:\n      - it works, fast');
    const plan = planRun(journal([storiesStarted()]), request({ start: null, readLoopFile: reader({ 'prd.yaml': text }) }));
    if (plan.kind !== 'resume') throw new Error('expected a resume');
    const written = text.replace('passes: true', 'passes: false');
    expect(plan.writes).toEqual({ 'prd.yaml': written });
    expect(plan.blobs).toEqual([written]);
    expect(plan.drafts[1]).toMatchObject({ payload: { event: { type: 'STORIES_CHANGED', edited: ['S1'], reopened: ['S1'], prdBlob: createHash('sha256').update(written).digest('hex') } } });
    expect(plan.notices).toEqual([
      { level: 'warn', text: 'story S1 passed before, but its acceptance criteria changed: it is not passed any more' },
      { level: 'progress', text: 'prd.yaml changed: edited S1' },
    ]);
  });

  it('--parallel N on a resumed parallel run journals SET_PARALLEL last, only when N changes', () => {
    const records = journal([storiesStarted(['parallel 2'])]);
    const changed = planRun(records, request({ start: null, parallel: 3, readLoopFile: reader({ 'prd.yaml': `${PRD}  - id: S2\n    title: Second\n    acceptance: [x]\n` }) }));
    expect(events(changed)).toEqual(['run.resumed', 'STORIES_CHANGED', 'SET_PARALLEL']);
    expect(changed.drafts[2]).toMatchObject({ payload: { event: { type: 'SET_PARALLEL', parallel: 3 } } });
    expect(changed.kind === 'resume' && changed.notices.at(-1)).toEqual({ level: 'progress', text: 'parallel changed to 3 (--parallel)' });
    expect(events(planRun(records, request({ start: null, parallel: 2, readLoopFile: reader({ 'prd.yaml': PRD }) })))).toEqual(['run.resumed']);
  });
});

describe('planRun starting a stories run after another', () => {
  const storiesNewRun = (prd: string): NewRun => {
    const { config } = parseConfig('mode stories\nagent cmd ./agent.sh\ntool-control off\n', '.loop/yoke.conf', LIFECYCLE_REGISTRY);
    if (config === null) throw new Error('the stories config does not parse');
    return { lifecycle: storiesLifecycle, input: storiesLifecycle.input(config, (path) => `<${path}>`, '/project/.loop', reader({ 'prd.yaml': prd })), argv: ['run'] };
  };
  const ended: RecordDraft = { run: OLD, machine: 'stories', mv: STORIES_MACHINE_VERSION, type: 'run.abandoned', payload: { reason: 'yoke run --fresh' } };

  it('a story the last run passed whose criteria changed since: STORIES_CHANGED right after run.started, the flag set back first, the user warned', () => {
    const text = PRD.replace('acceptance: [it works]', 'acceptance: [it works, fast]');
    const plan = planRun(journal([storiesStarted(), ended]), request({ start: storiesNewRun(text), readLoopFile: reader({ 'prd.yaml': text }) }));
    expect(events(plan)).toEqual(['run.started', 'STORIES_CHANGED']);
    expect(plan.drafts[1]).toMatchObject({ run: NEW, machine: 'stories', payload: { cause: null, event: { edited: ['S1'], reopened: ['S1'], prdBlob: null } } });
    expect(plan).toMatchObject({ writes: { 'prd.yaml': text.replace('passes: true', 'passes: false') }, blobs: [] });
    expect(plan.notices[0]).toEqual({ level: 'warn', text: 'story S1 passed before, but its acceptance criteria changed: it is not passed any more' });
  });

  it('journals nothing more when prd.yaml is as the last run left it, or the run before was of another mode', () => {
    expect(events(planRun(journal([storiesStarted(), ended]), request({ start: storiesNewRun(PRD), readLoopFile: reader({ 'prd.yaml': PRD }) })))).toEqual(['run.started']);
    expect(events(planRun(journal([started(), abandoned]), request({ start: storiesNewRun(PRD), readLoopFile: reader({ 'prd.yaml': PRD }) })))).toEqual(['run.started']);
  });
});

describe('planRun starting a parallel stories run', () => {
  const scan = (key: string, lane: string | null, changed: string[]): RecordDraft[] => [
    { run: OLD, machine: 'stories', mv: STORIES_MACHINE_VERSION, type: 'effect.started', payload: { key, kind: 'boundary.scan', params: { ...(lane === null ? {} : { lane }), baseline: 't' }, attempt: 1 } },
    { run: OLD, machine: 'stories', mv: STORIES_MACHINE_VERSION, type: 'effect.completed', payload: { key, kind: 'boundary.scan', result: { changed } } },
  ];
  const storiesRun = (lines: readonly string[]): NewRun => {
    const started = storiesStarted(lines);
    if (started.type !== 'run.started') throw new Error('expected run.started');
    return { lifecycle: { name: 'stories', version: STORIES_MACHINE_VERSION }, input: started.payload.input as NewRun['input'], argv: ['run'] };
  };
  const inputOf = (plan: ReturnType<typeof planRun>) => plan.drafts.find((draft) => draft.type === 'run.started')?.payload as { input: { touchedBefore?: unknown } };

  it('seeds the file-overlap prediction with what each story\'s last lane attempt touched in earlier runs (DESIGN §10); serial scans do not count', () => {
    const records = journal([
      storiesStarted(['parallel 2']),
      ...scan(`${OLD}/2/0`, 'S1', ['src/a.ts']), ...scan(`${OLD}/4/0`, 'S2', ['src/shared.ts']), ...scan(`${OLD}/6/0`, 'S1', ['src/shared.ts', 'src/b.ts']),
      ...scan(`${OLD}/8/0`, null, ['src/everything.ts']),
    ]);
    const plan = planRun(records, request({ fresh: true, start: storiesRun(['parallel 2']) }));
    expect(inputOf(plan).input.touchedBefore).toEqual({ S1: ['src/shared.ts', 'src/b.ts'], S2: ['src/shared.ts'] });
    // a serial run, or a parallel one with no lane history, journals none (its input is what older yokes journaled)
    expect(inputOf(planRun(records, request({ fresh: true, start: storiesRun([]) }))).input).not.toHaveProperty('touchedBefore');
    expect(inputOf(planRun([], request({ start: storiesRun(['parallel 2']) }))).input).not.toHaveProperty('touchedBefore');
  });

  it('journals laneRouting (lanes route per story, DESIGN §15) only for a parallel run with profiles; a serial one, or one without profiles, journals what older yokes did', () => {
    const profiles = ['profile fast tier light cmd ./fast.sh', 'profile deep tier strong cmd ./deep.sh', 'routing escalate'];
    const flags = (lines: readonly string[]) => {
      const input = inputOf(planRun([], request({ start: storiesRun(lines) }))).input as { sequenceRouting?: true; laneRouting?: true };
      return [input.sequenceRouting ?? null, input.laneRouting ?? null];
    };
    expect(flags(['parallel 2', ...profiles])).toEqual([true, true]);
    expect(flags(profiles)).toEqual([true, null]);
    expect(flags(['parallel 2'])).toEqual([null, null]);
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
