// store/fold/run-fold.ts: the real loop machine driven through RunFold by records from the real journal writer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../config/parse-config.js';
import { completionEvent } from '../../../machines/effect-events.js';
import type { EffectKind, EffectResult } from '../../../machines/effects.js';
import { LOOP_MACHINE_VERSION, loopMachine, type LoopContext, type LoopInput } from '../../../machines/lifecycles/loop.js';
import { readJournalFile } from '../../../store/journal/file/journal-file.js';
import { foldRun } from '../../../store/fold/journal-runs.js';
import { openFileJournal } from '../../../store/journal/file/open-file-journal.js';
import type { JournalWriter } from '../../../store/journal/journal-writer.js';
import type { JournalRecord, RecordDraft } from '../../../store/journal/record.js';
import { canonical, RunFold, type KeyedRequest } from '../../../store/fold/run-fold.js';
import { YokeError } from '../../../errors/yoke-error.js';
import { LIFECYCLE_REGISTRY } from '../../../machines/lifecycles/registry.js';

const RUN = '01JRUNFOLDTEST0000000000AA';
const dirs: string[] = [];
const journals: JournalWriter[] = [];
afterEach(async () => {
  for (const journal of journals.splice(0)) await journal.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** What each effect kind reports in these tests (the agent always leaves `notes`). */
function resultFor<K extends EffectKind>(kind: K, notes: string): EffectResult<K> {
  const results: { [K in EffectKind]: EffectResult<K> } = {
    'baseline.capture': { specFiles: { 'plan.md': 'a'.repeat(64), 'protocol.md': null }, tree: 'b'.repeat(40) },
    'spec.restore': { restored: ['plan.md'], displaced: {} },
    'agent.spawn': { outcome: 'exited', exitCode: 0, signal: null, durationMs: 12, usage: null, transcript: '.journal/t/1.log' },
    'notes.read': { firstLine: notes },
    'boundary.scan': { changed: ['src/a.ts'] },
    'check.run': { outcome: 'exited', exitCode: 0, signal: null, durationMs: 3, excerpt: 'ok\n' },
    'acceptance.check': { outcome: 'completed', status: 'passed', exitCode: 0, report: { path: 'proof/r/report.json', sha256: 'e'.repeat(64) }, criteria: [], sourceMatches: true },
    'file.write': { sha256: 'c'.repeat(64) },
    'hook.fire': { started: true },
    'commit.create': { sha: null },
    'file.inspect': { exists: true, firstLine: 'VERDICT: PASS', blank: false, stamp: null },
    'file.read': { content: null },
    'notes.reset': { changed: true },
    'clock.read': { now: 0 },
    'wait.until': { waitedMs: 0 },
    'protect.scan': { files: [] },
    'protect.restore': { restored: [] },
    'story.pass': { sha: null, prdBlob: 'd'.repeat(64) },
    'context.read': { block: '', files: [], guard: { 'PROJECT.md': null, 'DECISIONS.md': null } },
    'worktree.create': { sha: 'c'.repeat(40), tree: 'b'.repeat(40), path: '.git/yoke/worktrees/S1' },
    'candidate.commit': { sha: 'c'.repeat(40), tree: 'b'.repeat(40) },
    'candidate.rebase': { ok: true, sha: 'c'.repeat(40), tree: 'b'.repeat(40), files: [], output: '' },
    'candidate.reject': { kept: 'refs/yoke/r/rejected/S1/1' },
    'story.land': { sha: 'c'.repeat(40), prdBlob: 'd'.repeat(64) },
    'worktree.remove': { removed: true },
  };
  return results[kind];
}

/** A run of the loop machine on a real journal, and helpers that stage a record and fold it. */
async function startRun(confLines: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'yoke-run-fold-'));
  dirs.push(dir);
  const { config, issues } = parseConfig(`${['mode loop', 'agent cmd ./agent.sh', ...confLines].join('\n')}\n`, '.loop/yoke.conf', LIFECYCLE_REGISTRY);
  if (!config) throw new Error(`test config is invalid: ${JSON.stringify(issues)}`);
  const input: LoopInput = {
    config,
    workerPrompt: 'Iteration {{iteration}} of {{maxIterations}} in {{loopDir}}.',
    loopDir: join(dir, '.loop'),
    specFiles: ['plan.md', 'protocol.md'],
  };
  const journal = await openFileJournal(join(dir, 'journal.jsonl'));
  journals.push(journal);
  const started = journal.stage({ type: 'run.started', run: RUN, machine: 'loop', mv: LOOP_MACHINE_VERSION, payload: { mode: 'loop', input, argv: ['run'] } });
  if (started.type !== 'run.started') throw new Error('unreachable');
  const fold = new RunFold(loopMachine, started);

  /** Stage a record of this run in the journal and fold it (`journal.flush()` makes them durable). */
  const record = (draft: Omit<RecordDraft, 'run' | 'machine' | 'mv'>): JournalRecord => {
    const staged = journal.stage({ ...draft, run: RUN, machine: 'loop', mv: LOOP_MACHINE_VERSION } as RecordDraft);
    fold.apply(staged);
    return staged;
  };
  /** Run the oldest outstanding effect the way the runner does: started, completed, event. */
  const complete = (notes = 'STATUS: IN_PROGRESS'): KeyedRequest => {
    const next = fold.outstanding[0];
    if (!next) throw new Error('nothing outstanding');
    const { key, request } = next;
    const result = resultFor(request.kind, notes);
    record({ type: 'effect.started', payload: { key, kind: request.kind, params: request.params, attempt: 1 } });
    record({ type: 'effect.completed', payload: { key, kind: request.kind, result } });
    const event = completionEvent(request, result);
    if (event) record({ type: 'event', payload: { cause: key, event } });
    return next;
  };
  /** Complete effects until the machine stops. */
  const finish = (notes: string): void => {
    for (let guard = 0; fold.active; guard += 1) {
      if (guard > 100) throw new Error('the loop never finished');
      complete(notes);
    }
  };
  return { journal, fold, started, record, complete, finish };
}

/** The YokeError that `act` throws (fails the test when it throws nothing or something else). */
function refusal(act: () => unknown): YokeError {
  try {
    act();
  } catch (error) {
    if (error instanceof YokeError) return error;
    throw error;
  }
  throw new Error('expected the record to be refused');
}

const summary = (requests: KeyedRequest[]) => requests.map((r) => [r.key, r.request.kind, r.request.params]);

describe('RunFold', () => {
  it('lists exactly the requested effects as outstanding, in order, keyed run/seq/index', async () => {
    const run = await startRun(['hook run-start echo a', 'hook run-start echo b', 'hook iteration-start echo c']);

    expect(summary(run.fold.outstanding)).toEqual([
      [`${RUN}/1/0`, 'hook.fire', { event: 'run-start', command: 'echo a', iteration: 0 }],
      [`${RUN}/1/1`, 'hook.fire', { event: 'run-start', command: 'echo b', iteration: 0 }],
      [`${RUN}/1/2`, 'baseline.capture', { specFiles: ['plan.md', 'protocol.md'] }],
    ]);

    // fire-and-forget hooks are resolved by their completion alone
    run.complete();
    run.complete();
    expect(run.fold.outstanding.map((r) => r.key)).toEqual([`${RUN}/1/2`]);

    // a started or completed effect stays owed until the machine is told
    const baseline = run.fold.outstanding[0] as KeyedRequest;
    const result = resultFor('baseline.capture', '');
    run.record({ type: 'effect.started', payload: { key: baseline.key, kind: 'baseline.capture', params: baseline.request.params, attempt: 1 } });
    run.record({ type: 'effect.completed', payload: { key: baseline.key, kind: 'baseline.capture', result } });
    expect(run.fold.outstanding.map((r) => r.key)).toEqual([baseline.key]);
    const event = run.record({ type: 'event', payload: { cause: baseline.key, event: { type: 'BASELINE_CAPTURED', result } } });

    expect(summary(run.fold.outstanding)).toEqual([
      [`${RUN}/${event.seq}/0`, 'hook.fire', { event: 'iteration-start', command: 'echo c', iteration: 1 }],
      [`${RUN}/${event.seq}/1`, 'spec.restore', { specFiles: result.specFiles }],
    ]);
    expect(run.fold.effects.get(baseline.key)).toMatchObject({ attempts: 1, consumed: true, completed: { result, seq: event.seq - 1 } });
  });

  it('reaches the same state and owes the same effects when refolded from the file', async () => {
    const run = await startRun(['guard unit npm test', 'max-iterations 3']);
    for (let step = 0; step < 6; step += 1) run.complete();

    await run.journal.flush();
    const refolded = foldRun(readJournalFile(run.journal.store.location).records, run.started);

    expect(refolded.snapshot.value).toEqual(run.fold.snapshot.value);
    expect(refolded.snapshot.context).toEqual(run.fold.snapshot.context);
    expect(summary(refolded.outstanding)).toEqual(summary(run.fold.outstanding));
    expect(refolded.outstanding.length).toBeGreaterThan(0);
  });

  it('drives the loop to its final state and its output', async () => {
    const run = await startRun(['max-iterations 2', 'commit off']);
    run.finish('STATUS: DONE');
    expect(run.fold.active).toBe(false);
    expect(run.fold.snapshot.value).toBe('done');
    expect(run.fold.snapshot.output).toEqual({ exitCode: 0, reason: 'done', iterations: 1 });
    expect(run.fold.outstanding).toEqual([]);
  });

  it('accepts journaled params whose keys are in another order', async () => {
    const run = await startRun([]);
    while (run.fold.outstanding[0]?.request.kind !== 'agent.spawn') run.complete();
    const agent = run.fold.outstanding[0];
    const reversed = Object.fromEntries(Object.entries(agent.request.params).reverse());
    expect(Object.keys(reversed)).not.toEqual(Object.keys(agent.request.params));

    run.record({ type: 'effect.started', payload: { key: agent.key, kind: 'agent.spawn', params: reversed, attempt: 1 } });

    expect(run.fold.effects.get(agent.key)?.attempts).toBe(1);
  });

  describe('refuses records that do not fit the run (workspace error naming the record)', () => {
    it('an effect.started whose params differ from what the machine requests (divergence)', async () => {
      const run = await startRun([]);
      const next = run.fold.outstanding[0] as KeyedRequest;
      const error = refusal(() =>
        run.record({ type: 'effect.started', payload: { key: next.key, kind: 'baseline.capture', params: { specFiles: ['plan.md'] }, attempt: 1 } }),
      );
      expect(error.code).toBe('workspace');
      expect(error.message).toContain(next.key);
      expect(error.message).toContain('journal record 2 (effect.started)');
      expect(error.message).toMatch(/other parameters/);
      expect(run.fold.effects.get(next.key)?.attempts).toBe(0);
    });

    it('an effect.started whose kind differs from what the machine requests', async () => {
      const run = await startRun([]);
      const next = run.fold.outstanding[0] as KeyedRequest;
      const error = refusal(() =>
        run.record({ type: 'effect.started', payload: { key: next.key, kind: 'spec.restore', params: next.request.params, attempt: 1 } }),
      );
      expect(error.code).toBe('workspace');
      expect(error.message).toContain(next.key);
    });

    it('an event after the machine reached its final state', async () => {
      const run = await startRun(['max-iterations 1', 'commit off']);
      run.finish('STATUS: IN_PROGRESS');
      expect(run.fold.snapshot.value).toBe('exhausted');
      const error = refusal(() => run.record({ type: 'event', payload: { cause: null, event: { type: 'SET_MAX_ITERATIONS', max: 5 } } }));
      expect(error.code).toBe('workspace');
      expect(error.message).toMatch(/after the machine reached a final state/);
      expect((run.fold.snapshot.context as LoopContext).maxIterations).toBe(1);
    });

    it.each([
      ['effect.started', (key: string) => ({ type: 'effect.started', payload: { key, kind: 'baseline.capture', params: { specFiles: ['plan.md', 'protocol.md'] }, attempt: 1 } })],
      ['effect.completed', (key: string) => ({ type: 'effect.completed', payload: { key, kind: 'baseline.capture', result: resultFor('baseline.capture', '') } })],
      ['effect.interrupted', (key: string) => ({ type: 'effect.interrupted', payload: { key, kind: 'agent.spawn', reason: 'stopped' } })],
      ['effect.failed', (key: string) => ({ type: 'effect.failed', payload: { key, kind: 'agent.spawn', message: 'boom' } })],
      ['process.spawned', (key: string) => ({ type: 'process.spawned', payload: { key, pid: 4242, startTime: '1' } })],
      ['event', (key: string) => ({ type: 'event', payload: { cause: key, event: { type: 'BASELINE_CAPTURED', result: resultFor('baseline.capture', '') } } })],
    ] as const)('a %s naming an effect key the machine never requested', async (_type, make) => {
      const run = await startRun([]);
      const unknown = `${RUN}/99/0`;
      const error = refusal(() => run.record(make(unknown) as Omit<RecordDraft, 'run' | 'machine' | 'mv'>));
      expect(error.code).toBe('workspace');
      expect(error.message).toContain(`it refers to effect ${unknown}, which the machine never requested`);
      expect(summary(run.fold.outstanding)).toEqual([[`${RUN}/1/0`, 'baseline.capture', { specFiles: ['plan.md', 'protocol.md'] }]]);
    });

    it('a result that does not match its effect’s schema', async () => {
      const run = await startRun([]);
      const next = run.fold.outstanding[0] as KeyedRequest;
      run.record({ type: 'effect.started', payload: { key: next.key, kind: 'baseline.capture', params: next.request.params, attempt: 1 } });
      const error = refusal(() => run.record({ type: 'effect.completed', payload: { key: next.key, kind: 'baseline.capture', result: { tree: 7 } } }));
      expect(error.code).toBe('workspace');
      expect(error.message).toMatch(/does not match its schema/);
    });

    it('an event type no machine knows', async () => {
      const run = await startRun([]);
      const error = refusal(() => run.record({ type: 'event', payload: { cause: null, event: { type: 'TELEPORT' } } }));
      expect(error.code).toBe('workspace');
      expect(error.message).toMatch(/TELEPORT is not one this machine knows/);
    });

    it('a second run.started for the same run', async () => {
      const run = await startRun([]);
      const error = refusal(() => run.record({ type: 'run.started', payload: run.started.payload }));
      expect(error.code).toBe('workspace');
      expect(error.message).toMatch(/second run\.started/);
    });
  });

  describe('refuses events that do not follow from their cause', () => {
    it('an event whose cause never completed or was interrupted', async () => {
      const run = await startRun([]);
      const next = run.fold.outstanding[0] as KeyedRequest;
      run.record({ type: 'effect.started', payload: { key: next.key, kind: 'baseline.capture', params: next.request.params, attempt: 1 } });
      const error = refusal(() =>
        run.record({ type: 'event', payload: { cause: next.key, event: { type: 'BASELINE_CAPTURED', result: resultFor('baseline.capture', '') } } }),
      );
      expect(error.code).toBe('workspace');
    });

    it('an event that is not the completion event of its cause', async () => {
      const run = await startRun([]);
      const next = run.fold.outstanding[0] as KeyedRequest;
      const result = resultFor('baseline.capture', '');
      run.record({ type: 'effect.started', payload: { key: next.key, kind: 'baseline.capture', params: next.request.params, attempt: 1 } });
      run.record({ type: 'effect.completed', payload: { key: next.key, kind: 'baseline.capture', result } });
      const error = refusal(() => run.record({ type: 'event', payload: { cause: next.key, event: { type: 'NOTES_READ', result: { firstLine: 'STATUS: DONE' } } } }));
      expect(error.code).toBe('workspace');
    });

    it('a second event for a cause the machine was already told about', async () => {
      const run = await startRun(['guard a true', 'guard b true']);
      while (run.fold.outstanding[0]?.request.kind !== 'check.run') run.complete();
      const check = run.fold.outstanding[0];
      run.complete();
      const status = run.fold.effects.get(check.key);
      const event = completionEvent(check.request, status?.completed?.result as EffectResult<'check.run'>);
      // the same CHECK_FINISHED again would silently count as guard b's result
      const error = refusal(() => run.record({ type: 'event', payload: { cause: check.key, event: event as { type: string } } }));
      expect(error.code).toBe('workspace');
    });
  });
});

describe('canonical', () => {
  it('is independent of key order, at every depth', () => {
    const a = { b: 1, a: { d: [{ y: 1, x: 2 }], c: null }, e: 'text' };
    const b = { e: 'text', a: { c: null, d: [{ x: 2, y: 1 }] }, b: 1 };
    expect(canonical(a)).toBe(canonical(b));
    expect(canonical(a)).toBe('{"a":{"c":null,"d":[{"x":2,"y":1}]},"b":1,"e":"text"}');
  });

  it('still tells different values apart: array order, values, extra keys', () => {
    expect(canonical({ a: [1, 2] })).not.toBe(canonical({ a: [2, 1] }));
    expect(canonical({ a: 1 })).not.toBe(canonical({ a: '1' }));
    expect(canonical({ a: 1 })).not.toBe(canonical({ a: 1, b: null }));
  });
});
