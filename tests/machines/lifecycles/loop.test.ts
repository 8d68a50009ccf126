// The loop machine as "events in → effects out": scripted results go in, effect requests come out.
import { describe, expect, it } from 'vitest';
import type { MachineEvent } from '../../../machines/effect-events.js';
import type { EffectRequest } from '../../../machines/effects.js';
import { loopMachine, notesSayDone, planChecks } from '../../../machines/lifecycles/loop.js';
import {
  BASELINE_TREE,
  LOOP_DIR,
  SPEC_FILES,
  drive,
  excerptOf,
  iterationGroups,
  label,
  makeCheckResult,
  makeConfig,
  makeInput,
  replay,
  requestsOfKind,
  scriptedResponder,
  type DriveOptions,
  type IterationScript,
} from '../support/loop-driver.js';

const HOOKS = ['run-start', 'iteration-start', 'iteration-end', 'done', 'bailout'].map((event) => `hook ${event} ./hooks/${event}.sh`);

/** Run the loop over `conf` lines with `script` playing the world, to its end. */
function run(conf: string[], script: (iteration: number) => IterationScript, options?: DriveOptions) {
  const input = makeInput(makeConfig(conf));
  const result = drive(input, scriptedResponder(script), options);
  expect(result.end).toBe('final');
  return { ...result, input, labels: result.requests.map(label) };
}

/** DONE from iteration `n` on, IN_PROGRESS before. */
const doneFrom = (n: number) => (iteration: number): IterationScript => ({ notes: iteration >= n ? 'DONE' : 'IN_PROGRESS' });

const reports = (requests: readonly EffectRequest[]): string[] =>
  requestsOfKind(requests, 'file.write').filter((r) => r.params.file === 'guard-results.md').map((r) => r.params.content);

const checksPerIteration = (requests: readonly EffectRequest[]): Record<number, string[]> => {
  const byIteration: Record<number, string[]> = {};
  for (const r of requestsOfKind(requests, 'check.run')) (byIteration[r.params.iteration] ??= []).push(r.params.name);
  return byIteration;
};

const commitIterations = (requests: readonly EffectRequest[]): number[] => requestsOfKind(requests, 'commit.create').map((r) => r.params.iteration);

describe('a normal run', () => {
  const conf = ['max-iterations 5', 'guard lint npm run lint', 'guard tests npm test', 'commit each', ...HOOKS];

  it('requests, per iteration: spec.restore → agent.spawn → notes.read → boundary.scan → check.run per guard → guard-results.md → commit', () => {
    const { labels, requests, output } = run(conf, doneFrom(3));
    const iteration = (n: number) => ['spec.restore', `agent.spawn #${n}`, 'notes.read', 'boundary.scan', 'check.run lint', 'check.run tests', 'file.write guard-results.md', `commit.create #${n}`];
    expect(iterationGroups(requests)).toEqual([iteration(1), iteration(2), iteration(3)]);
    expect(labels).toEqual([
      'hook run-start@0',
      'baseline.capture',
      'hook iteration-start@1',
      ...iteration(1),
      'hook iteration-end@1',
      'hook iteration-start@2',
      ...iteration(2),
      'hook iteration-end@2',
      'hook iteration-start@3',
      ...iteration(3),
      'hook iteration-end@3',
      'hook done@3',
    ]);
    expect(output).toEqual({ exitCode: 0, reason: 'done', iterations: 3 });
  });

  it('the first request is baseline.capture of the spec files, preceded only by run-start hooks', () => {
    const { requests } = run(['hook run-start ./a.sh', 'hook run-start ./b.sh', 'hook done ./c.sh'], doneFrom(1));
    expect(requests.slice(0, 3)).toEqual([
      { kind: 'hook.fire', params: { event: 'run-start', command: './a.sh', iteration: 0 } },
      { kind: 'hook.fire', params: { event: 'run-start', command: './b.sh', iteration: 0 } },
      { kind: 'baseline.capture', params: { specFiles: SPEC_FILES } },
    ]);
  });

  it('results flow into later requests: the baseline is restored and scanned against, timeouts come from the config', () => {
    const { requests } = run(['guard tests npm test', 'guard-timeout 90s', 'idle-timeout 5m', 'model sonnet'], doneFrom(1));
    expect(requestsOfKind(requests, 'spec.restore')[0]?.params).toEqual({ specFiles: Object.fromEntries(SPEC_FILES.map((f) => [f, `sha-of-${f}`])) });
    expect(requestsOfKind(requests, 'boundary.scan')[0]?.params).toEqual({ baseline: BASELINE_TREE });
    expect(requestsOfKind(requests, 'notes.read')[0]?.params).toEqual({ file: 'notes.md' });
    expect(requestsOfKind(requests, 'check.run')[0]?.params).toEqual({ kind: 'guard', name: 'tests', command: 'npm test', iteration: 1, timeoutMs: 90_000 });
    expect(requestsOfKind(requests, 'agent.spawn')[0]?.params).toMatchObject({
      role: 'worker', iteration: 1, agent: { kind: 'cmd', command: './fake-agent.sh' }, model: 'sonnet', idleTimeoutMs: 300_000,
    });
  });

  it('hooks fire at run-start, iteration-start, iteration-end and bailout with the right iteration numbers', () => {
    const { requests, output } = run(['max-iterations 2', ...HOOKS], () => ({ notes: 'IN_PROGRESS' }));
    expect(requestsOfKind(requests, 'hook.fire').map((r) => `${r.params.event}@${r.params.iteration} ${r.params.command}`)).toEqual([
      'run-start@0 ./hooks/run-start.sh',
      'iteration-start@1 ./hooks/iteration-start.sh',
      'iteration-end@1 ./hooks/iteration-end.sh',
      'iteration-start@2 ./hooks/iteration-start.sh',
      'iteration-end@2 ./hooks/iteration-end.sh',
      'bailout@2 ./hooks/bailout.sh',
    ]);
    expect(output).toEqual({ exitCode: 1, reason: 'max-iterations', iterations: 2 });
  });

  it('5.5 hooks are fire-and-forget: hooks that fail to start change no other request and no outcome', () => {
    const started = run(conf, doneFrom(2));
    const failed = run(conf, (i) => ({ ...doneFrom(2)(i), hookStarted: false }));
    expect(failed.requests).toEqual(started.requests);
    expect(failed.output).toEqual(started.output);
    expect(failed.events).toEqual(started.events);
  });

  it('the agent prompt is the worker template with the iteration numbers and the loop folder filled in', () => {
    const input = makeInput(makeConfig(['max-iterations 3']), { workerPrompt: 'It {{iteration}}/{{ maxIterations }} in {{loopDir}}; {{unknown}} stays' });
    const { requests } = drive(input, scriptedResponder(doneFrom(3)));
    expect(requestsOfKind(requests, 'agent.spawn').map((r) => r.params.prompt)).toEqual([
      `It 1/3 in ${LOOP_DIR}; {{unknown}} stays`,
      `It 2/3 in ${LOOP_DIR}; {{unknown}} stays`,
      `It 3/3 in ${LOOP_DIR}; {{unknown}} stays`,
    ]);
  });
});

describe('1.2 termination requires both signals', () => {
  const conf = ['max-iterations 5', 'guard tests npm test'];

  it('1.2 DONE with a failing guard continues; passing guards without DONE continue; both end the run with exit 0', () => {
    const script = (iteration: number): IterationScript =>
      iteration === 1 ? { notes: 'DONE', checks: { tests: 1 } }
      : iteration === 2 ? { notes: 'IN_PROGRESS' }
      : { notes: 'DONE' };
    const { requests, output, snapshot } = run(conf, script);
    expect(requestsOfKind(requests, 'agent.spawn').map((r) => r.params.iteration)).toEqual([1, 2, 3]);
    expect(snapshot.value).toBe('done');
    expect(output).toEqual({ exitCode: 0, reason: 'done', iterations: 3 });
  });

  it('1.2 DONE with a guard that always fails never ends the run before the cap', () => {
    const { output } = run(['max-iterations 4', 'guard tests npm test'], () => ({ notes: 'DONE', checks: { tests: 2 } }));
    expect(output).toEqual({ exitCode: 1, reason: 'max-iterations', iterations: 4 });
  });

  it('1.2 a guard killed by its timeout is not a pass, even with exit code 0 recorded', () => {
    const timedOut = { ...makeCheckResult(0, 'slow'), outcome: 'timed-out' as const };
    const { output } = run(['max-iterations 2', 'guard tests npm test'], () => ({ notes: 'DONE', checks: { tests: timedOut } }));
    expect(output?.exitCode).toBe(1);
  });

  it('1.2 passing guards without DONE (or with no notes at all) run to the cap: exit 1, reason max-iterations', () => {
    const { snapshot, output, labels } = run(['max-iterations 3', 'guard tests npm test'], (i) => ({ notes: i === 2 ? null : 'IN_PROGRESS' }));
    expect(snapshot.value).toBe('exhausted');
    expect(output).toEqual({ exitCode: 1, reason: 'max-iterations', iterations: 3 });
    expect(labels.filter((l) => l.startsWith('agent.spawn'))).toHaveLength(3);
  });

  it('1.2 with no guards configured, DONE alone is enough', () => {
    const { output, requests } = run(['max-iterations 3'], doneFrom(2));
    expect(requestsOfKind(requests, 'check.run')).toEqual([]);
    expect(output).toEqual({ exitCode: 0, reason: 'done', iterations: 2 });
  });

  it('notesSayDone reads only an exact `STATUS: DONE` first line (whitespace tolerated)', () => {
    expect([' STATUS: DONE ', 'STATUS:DONE', 'STATUS:  DONE\t'].map(notesSayDone)).toEqual([true, true, true]);
    expect(['STATUS: IN_PROGRESS', 'status: done', 'STATUS: DONE.', 'STATUS: DONE soon', '', null].map(notesSayDone)).toEqual([false, false, false, false, false, false]);
  });
});

describe('1.3 guard feedback is visible', () => {
  it('1.3 guard-results.md is written after every iteration and carries every guard’s excerpt, failing or not', () => {
    const conf = ['max-iterations 4', 'guard lint npm run lint', 'guard tests npm test'];
    const { requests } = run(conf, (i) => ({ notes: i === 3 ? 'DONE' : 'IN_PROGRESS', checks: { tests: i === 1 ? 1 : 0 } }));
    const written = reports(requests);
    expect(written).toHaveLength(3);
    written.forEach((content, index) => {
      const iteration = index + 1;
      expect(content).toContain(`iteration ${iteration} of 4`);
      expect(content).toContain(excerptOf('lint', 0, iteration));
      expect(content).toContain(excerptOf('tests', iteration === 1 ? 1 : 0, iteration));
    });
    expect(written[0]).toContain('1 of 2 guard(s) FAILED: tests.');
    expect(written[1]).toContain('All 2 guard(s) passed.');
  });

  it('1.3 the report is written before anything else happens at the end of the iteration', () => {
    const { labels } = run(['max-iterations 2', 'guard tests npm test', 'commit each', ...HOOKS], doneFrom(2));
    const lastReport = labels.lastIndexOf('file.write guard-results.md');
    expect(labels.slice(lastReport)).toEqual(['file.write guard-results.md', 'commit.create #2', 'hook iteration-end@2', 'hook done@2']);
  });
});

describe('1.4 boundary violations block guards', () => {
  const conf = ['max-iterations 3', 'no-modify vendor/', 'guard tests npm test', 'periodic audit 1 npm audit', 'commit each'];

  it('1.4 a changed path under no-modify: no check.run at all, and the report names the path', () => {
    const { requests, output } = run(conf, (i) => (i === 1 ? { notes: 'DONE', changed: ['src/app.ts', 'vendor/lib.js'] } : { notes: 'DONE', changed: ['src/app.ts'] }));
    expect(checksPerIteration(requests)).toEqual({ 2: ['tests', 'audit'] });
    const [first] = reports(requests);
    expect(first).toContain('Boundary check: FAILED');
    expect(first).toContain('`vendor/lib.js` — protected by `no-modify vendor/`');
    expect(first).not.toContain('src/app.ts');
    expect(first).toContain('All guards were skipped');
    // DONE with a broken boundary is not success, and is not committed
    expect(commitIterations(requests)).toEqual([2]);
    expect(output).toEqual({ exitCode: 0, reason: 'done', iterations: 2 });
  });

  it('1.4 a violation in every iteration never runs a guard and ends at the cap', () => {
    const { requests, output } = run(conf, () => ({ notes: 'DONE', changed: ['vendor/x'] }));
    expect(requestsOfKind(requests, 'check.run')).toEqual([]);
    expect(output).toEqual({ exitCode: 1, reason: 'max-iterations', iterations: 3 });
  });

  it('5.3 scope rules resolve most-specific-wins: allow src/ + no-modify src/main.rs', () => {
    const scoped = ['max-iterations 2', 'allow src/', 'no-modify src/main.rs', 'guard tests cargo test'];
    const other = run(scoped, () => ({ notes: 'DONE', changed: ['src/other.rs'] }));
    expect(checksPerIteration(other.requests)).toEqual({ 1: ['tests'] });
    expect(other.output?.exitCode).toBe(0);
    const main = run(scoped, () => ({ notes: 'DONE', changed: ['src/main.rs', 'README.md'] }));
    expect(checksPerIteration(main.requests)).toEqual({});
    const [report] = reports(main.requests);
    expect(report).toContain('`src/main.rs` — protected by `no-modify src/main.rs`');
    expect(report).toContain('`README.md` — not covered by any `allow` rule');
    expect(main.output?.exitCode).toBe(1);
  });
});

describe('periodics and guard-afters', () => {
  const conf = ['max-iterations 6', 'guard tests npm test', 'periodic audit 2 npm audit', 'guard-after audit audit-clean ./audit-ok.sh', 'periodic bench 3 npm run bench'];

  it('periodics run only on iterations divisible by `every`, each guard-after right after its periodic', () => {
    const { requests } = run(conf, () => ({ notes: 'IN_PROGRESS' }));
    expect(checksPerIteration(requests)).toEqual({
      1: ['tests'],
      2: ['tests', 'audit', 'audit-clean'],
      3: ['tests', 'bench'],
      4: ['tests', 'audit', 'audit-clean'],
      5: ['tests'],
      6: ['tests', 'audit', 'audit-clean', 'bench'],
    });
    expect(requestsOfKind(requests, 'check.run').filter((r) => r.params.iteration === 2).map((r) => r.params.kind)).toEqual(['guard', 'periodic', 'guard-after']);
  });

  it('planChecks plans guards first, then each due periodic followed by its guard-afters', () => {
    const plan = planChecks(makeConfig(conf), 6);
    expect(plan.map((c) => `${c.kind} ${c.name}: ${c.command}`)).toEqual([
      'guard tests: npm test', 'periodic audit: npm audit', 'guard-after audit-clean: ./audit-ok.sh', 'periodic bench: npm run bench',
    ]);
    expect(planChecks(makeConfig(conf), 1).map((c) => c.name)).toEqual(['tests']);
  });

  it('a failing periodic does not block DONE', () => {
    const { output } = run(conf, (i) => ({ notes: i === 2 ? 'DONE' : 'IN_PROGRESS', checks: { audit: 1 } }));
    expect(output).toEqual({ exitCode: 0, reason: 'done', iterations: 2 });
  });

  it('a failing guard-after blocks DONE (and the next iteration, where it is not due, can end the run)', () => {
    const { output, requests } = run(conf, (i) => ({ notes: i >= 2 ? 'DONE' : 'IN_PROGRESS', checks: { 'audit-clean': 1 } }));
    expect(output).toEqual({ exitCode: 0, reason: 'done', iterations: 3 });
    expect(reports(requests)[1]).toContain('1 of 2 guard(s) FAILED: audit-clean.');
  });

  it('the periodic is shown as informational in the report', () => {
    const { requests } = run(conf, (i) => ({ notes: i === 2 ? 'DONE' : 'IN_PROGRESS', checks: { audit: 1 } }));
    expect(reports(requests)[1]).toMatch(/### periodic `audit` — ran \(informational\) \(exit 1, 1\.3s\)/);
  });
});

describe('commit policy', () => {
  // iteration 1: guard fails; 2: guards pass, not DONE; 3: boundary broken; 4: DONE and guards pass
  const script = (iteration: number): IterationScript =>
    iteration === 1 ? { checks: { tests: 1 } }
    : iteration === 2 ? {}
    : iteration === 3 ? { changed: ['vendor/x'] }
    : { notes: 'DONE' };
  const confFor = (commit: string) => ['max-iterations 5', 'no-modify vendor/', 'guard tests npm test', ...(commit === 'default' ? [] : [`commit ${commit}`])];

  it.each([
    ['off', []],
    ['done', [4]],
    ['default', [4]],
    ['each', [2, 4]],
  ])('commit %s requests commit.create after iterations %j', (commit, expected) => {
    const { requests, output } = run(confFor(commit), script);
    expect(commitIterations(requests)).toEqual(expected);
    expect(output).toEqual({ exitCode: 0, reason: 'done', iterations: 4 });
  });

  it('commit messages say whether the loop is done', () => {
    const { requests } = run(confFor('each'), script);
    expect(requestsOfKind(requests, 'commit.create').map((r) => r.params.message)).toEqual(['yoke: iteration 2', 'yoke: loop done after iteration 4']);
  });

  it('commit done never commits a run that ends at the cap', () => {
    const { requests, output } = run(['max-iterations 2', 'guard tests npm test', 'commit done'], () => ({ notes: 'IN_PROGRESS' }));
    expect(commitIterations(requests)).toEqual([]);
    expect(output?.exitCode).toBe(1);
  });
});

describe('interrupted agent calls', () => {
  it('AGENT_INTERRUPTED re-requests spec.restore then agent.spawn for the same iteration, without counting an iteration', () => {
    const { labels, requests, output, snapshot } = run(['max-iterations 3', 'guard tests npm test', ...HOOKS], (i) => ({
      notes: i === 2 ? 'DONE' : 'IN_PROGRESS',
      interruptions: i === 1 ? 2 : 0,
    }));
    expect(labels.slice(0, 12)).toEqual([
      'hook run-start@0', 'baseline.capture', 'hook iteration-start@1',
      'spec.restore', 'agent.spawn #1',
      'spec.restore', 'agent.spawn #1',
      'spec.restore', 'agent.spawn #1',
      'notes.read', 'boundary.scan', 'check.run tests',
    ]);
    expect(labels.filter((l) => l === 'hook iteration-start@1')).toHaveLength(1);
    expect(requestsOfKind(requests, 'agent.spawn').map((r) => r.params.iteration)).toEqual([1, 1, 1, 2]);
    expect(output).toEqual({ exitCode: 0, reason: 'done', iterations: 2 });
    expect(snapshot.context).toMatchObject({ agentCalls: 2, interruptions: 2 });
  });

  it('interruptions do not use up max-iterations', () => {
    const { output } = run(['max-iterations 1'], () => ({ notes: 'DONE', interruptions: 3 }));
    expect(output).toEqual({ exitCode: 0, reason: 'done', iterations: 1 });
  });
});

describe('SET_MAX_ITERATIONS', () => {
  const setMaxAt = (iteration: number, max: number): DriveOptions => ({
    inject: (r) => (r.kind === 'agent.spawn' && r.params.iteration === iteration ? [{ type: 'SET_MAX_ITERATIONS', max }] : []),
  });

  it('raising the cap lets the run go on past the old cap, and later prompts and reports show the new cap', () => {
    const without = run(['max-iterations 2'], doneFrom(4));
    expect(without.output).toEqual({ exitCode: 1, reason: 'max-iterations', iterations: 2 });

    const raised = run(['max-iterations 2'], doneFrom(4), setMaxAt(2, 4));
    expect(raised.output).toEqual({ exitCode: 0, reason: 'done', iterations: 4 });
    // the cap is raised while agent call 2 (already requested with "of 2") runs
    expect(requestsOfKind(raised.requests, 'agent.spawn').map((r) => r.params.prompt)).toEqual([2, 2, 4, 4].map((max, i) => `Iteration ${i + 1} of ${max}, loop folder ${LOOP_DIR}.`));
    expect(reports(raised.requests).map((c) => c.split('\n')[0])).toEqual([2, 4, 4, 4].map((max, i) => `# Guard results — iteration ${i + 1} of ${max}`));
  });

  it('lowering the cap ends the run at the new cap', () => {
    const { output } = run(['max-iterations 10'], () => ({ notes: 'IN_PROGRESS' }), setMaxAt(1, 2));
    expect(output).toEqual({ exitCode: 1, reason: 'max-iterations', iterations: 2 });
  });

  it('lowering the cap below the current iteration ends the run after this iteration', () => {
    const { output } = run(['max-iterations 10'], () => ({ notes: 'IN_PROGRESS' }), setMaxAt(3, 1));
    expect(output).toEqual({ exitCode: 1, reason: 'max-iterations', iterations: 3 });
  });

  it('arriving while a check runs, it neither re-requests nor drops the check', () => {
    const conf = ['max-iterations 2', 'guard a true', 'guard b true'];
    const inject: DriveOptions['inject'] = (r) => (r.kind === 'check.run' && r.params.name === 'a' ? [{ type: 'SET_MAX_ITERATIONS', max: 1 }] : []);
    const { labels, output } = run(conf, doneFrom(5), { inject });
    expect(labels).toEqual(['baseline.capture', 'spec.restore', 'agent.spawn #1', 'notes.read', 'boundary.scan', 'check.run a', 'check.run b', 'file.write guard-results.md']);
    expect(output).toEqual({ exitCode: 1, reason: 'max-iterations', iterations: 1 });
  });
});

describe('determinism', () => {
  it('folding the same events twice yields deep-equal requests and snapshots', () => {
    const conf = ['max-iterations 6', 'no-modify vendor/', 'guard tests npm test', 'periodic audit 2 npm audit', 'guard-after audit ok ./ok.sh', 'commit each', ...HOOKS];
    const script = (i: number): IterationScript => ({
      notes: i >= 4 ? 'DONE' : 'IN_PROGRESS',
      changed: i === 3 ? ['vendor/a'] : ['src/a.ts'],
      checks: { tests: i === 1 ? 1 : 0, ok: i === 4 ? 1 : 0 },
      interruptions: i === 2 ? 1 : 0,
    });
    const driven = run(conf, script);
    const once = replay(driven.input, driven.events);
    const twice = replay(driven.input, structuredClone<MachineEvent[]>(driven.events));
    expect(once.requests).toEqual(driven.requests);
    expect(twice.requests).toEqual(once.requests);
    expect(JSON.stringify(twice.requests)).toBe(JSON.stringify(once.requests));
    const persisted = (s: typeof once.snapshot) => loopMachine.getPersistedSnapshot(s);
    expect(persisted(once.snapshot)).toEqual(persisted(driven.snapshot));
    expect(persisted(twice.snapshot)).toEqual(persisted(once.snapshot));
    expect(driven.output).toEqual({ exitCode: 0, reason: 'done', iterations: 5 });
  });

  it('every prefix of a run folds to the same snapshot as the run had at that point', () => {
    const driven = run(['max-iterations 3', 'guard tests npm test'], doneFrom(3));
    for (let n = 0; n <= driven.events.length; n += 1) {
      const a = replay(driven.input, driven.events.slice(0, n));
      const b = replay(driven.input, driven.events.slice(0, n));
      expect(loopMachine.getPersistedSnapshot(a.snapshot)).toEqual(loopMachine.getPersistedSnapshot(b.snapshot));
      expect(driven.requests.slice(0, a.requests.length)).toEqual(a.requests);
    }
  });
});
