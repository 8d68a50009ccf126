// Protected acceptance end to end (DESIGN §16, issue 22) against the bundle, real git, real npm and a
// scripted `cmd` agent that tries every way of weakening the checks: it edits a test file, `.skip`s
// a test, deletes one, rewrites package.json's test script, `chmod -x`es a hook and a guard script,
// edits a git-ignored fixture and empties the tests. Each change is caught, restored before the next
// agent call (the agent's version kept as a blob), and never decides "done"; a user's change between
// runs refuses `yoke run` until the explicit `yoke protect refresh`.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rewriteJournal } from '../support/journal-edit.js';
import { journalPath, readJournal } from '../support/journal-records.js';
import { makeJudgedWorkspace } from '../support/judged-workspace.js';
import { installShellAgent, shellCalls, type ShellScript } from '../support/shell-agent.js';
import { makeWorkspace, runYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 240_000;
/** a run with several npm/node guard runs: the 25 s default is short on a loaded machine */
const SLOW = { timeoutMs: 120_000 };
const workspaces: Workspace[] = [];
afterEach(async () => {
  for (const ws of workspaces.splice(0)) await ws.cleanup();
});

const MATH_TEST = "const assert = require('node:assert');\nconst { add } = require('../src/math.js');\nassert.strictEqual(add(2, 2), 4);\nconsole.log('math ok');\n";
const PACKAGE = `${JSON.stringify({ name: 'calc', private: true, scripts: { test: 'node tests/math.test.js' } }, null, 2)}\n`;

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A goal-mode project: `accept tests npm test` with `protect auto`, and a bug in src/math.js. */
async function goalProject(script: ShellScript, conf: string[] = [], files: Record<string, string> = {}): Promise<Workspace> {
  const ws = await makeWorkspace((paths) => ({
    '.loop/yoke.conf': `${['mode goal', `agent cmd sh ${paths.side('agent.sh')}`, 'accept tests npm test', 'protect auto', ...(conf.some((line) => line.startsWith('max-iterations')) ? [] : ['max-iterations 4']), ...conf].join('\n')}\n`,
    '.loop/goal.md': '# Goal\n\nMake `npm test` pass.\n',
    '.loop/protocol.md': '# Protocol\n\nOne attempt at a time.\n',
    '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
    '.loop/.gitignore': '.journal/\n.stash/\nproof/\n',
    'package.json': PACKAGE,
    'src/math.js': 'exports.add = (a, b) => a - b;\n',
    'tests/math.test.js': MATH_TEST,
    ...files,
  }));
  workspaces.push(ws);
  await installShellAgent(ws.sideDir, script);
  return ws;
}

describe('protected acceptance (DESIGN §16)', () => {
  it('§16 goal: a "fix" that edits the test is restored and not accepted; the code fix completes; a user edit between runs is refused until `yoke protect refresh`', async () => {
    const cheat = "console.log('math ok');\n";
    const ws = await goalProject({
      worker: [
        { write: { 'tests/math.test.js': cheat }, notes: 'DONE' },
        // what the agent finds when its next call starts, then the real fix
        { record: { 'tests/math.test.js': 'seen-2.js', '.loop/guard-results.md': 'results-1.md' }, write: { 'src/math.js': 'exports.add = (a, b) => a + b;\n' }, notes: 'DONE' },
      ],
      after: { worker: { notes: 'IN_PROGRESS' } },
    });
    const result = await runYoke(ws, ['run'], SLOW);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/took the protection baseline: \d+ protected file\(s\)/);
    // on failure, say what each effect came to (a stale source snapshot once failed attempt 2 here)
    const outcomes = (await readJournal(ws)).filter((record) => record.type === 'effect.completed' || record.type === 'effect.failed')
      .map((record) => `${record.seq} ${String((record.payload as { kind: string }).kind)}: ${JSON.stringify((record.payload as { result?: unknown; message?: unknown }).result ?? (record.payload as { message?: unknown }).message).slice(0, 1500)}`).join('\n');
    expect((await shellCalls(ws.sideDir)).map((call) => call.iteration), outcomes).toEqual([1, 2]);
    // restored before the next agent call, with the feedback naming it as acceptance infrastructure
    expect(await ws.sideText('seen-2.js')).toBe(MATH_TEST);
    const feedback = await ws.sideText('results-1.md');
    expect(feedback).toContain('acceptance infrastructure');
    expect(feedback).toMatch(/`tests\/math\.test\.js` — modified, protected by `protect tests\/`.*; restored/);
    expect(feedback).toContain('All guards were skipped');
    // the agent's version is kept as a blob for the user
    expect(existsSync(join(ws.path, '.loop/.journal/blobs', sha(cheat)))).toBe(true);
    expect(await ws.read('tests/math.test.js')).toBe(MATH_TEST);
    // the worker was told what is protected
    expect(await ws.sideText('prompts/worker-1.md')).toMatch(/## Protected files \(acceptance infrastructure\)[\s\S]*- `tests\/math\.test\.js`/);
    const records = await readJournal(ws);
    const baseline = records.find((record) => record.type === 'protect.baseline');
    const digest = (baseline?.payload as { protection: { digest: string; files: Array<{ path: string }> } }).protection.digest;
    expect((baseline?.payload as { protection: { files: Array<{ path: string }> } }).protection.files.map((file) => file.path)).toEqual(['package.json', 'tests/math.test.js']);
    expect(records.find((record) => record.type === 'run.finished')?.payload).toMatchObject({ exitCode: 0, reason: 'goal-complete', protection: digest });
    // the goal's evidence names the protection it was accepted under
    const run = records.find((record) => record.type === 'run.started')?.run ?? '';
    expect(JSON.parse(await ws.read(`.loop/proof/${run}/report.json`))).toMatchObject({ status: 'passed', protection: { digest, baseline: digest, unchanged: true } });
    const checked = await runYoke(ws, ['check', '--json']);
    expect(checked.exitCode, checked.stderr).toBe(0);
    expect(JSON.parse(checked.stdout)).toMatchObject({ report: { status: 'passed', protection: { digest, baseline: digest, unchanged: true } } });

    // Between runs the user makes the test stricter: the run refuses, naming the file and a diff summary.
    const stricter = `${MATH_TEST}assert.strictEqual(add(-1, 1), 0);\n`;
    await ws.write('tests/math.test.js', stricter);
    const refused = await runYoke(ws, ['run'], SLOW);
    expect(refused.exitCode, refused.stderr).toBe(1);
    expect(refused.stderr).toContain('1 protected file(s) changed since the protection baseline (1 modified); nothing was run');
    expect(refused.stderr).toContain('yoke protect refresh --why');
    expect(refused.stderr).toMatch(/tests\/math\.test\.js: modified \(\+1 .*lines?\)/);
    expect(await shellCalls(ws.sideDir)).toHaveLength(2);
    const status = await runYoke(ws, ['protect', 'status', '--json']);
    expect(status.exitCode, status.stderr).toBe(0);
    const report = JSON.parse(status.stdout) as { unchanged: boolean; baseline: { digest: string }; drift: Array<{ path: string; kind: string }> };
    expect(report).toMatchObject({ unchanged: false, baseline: { digest }, drift: [{ path: 'tests/math.test.js', kind: 'modified' }] });
    // no other command refreshes: a second run still refuses; `yoke check` fails on the changed protection
    expect((await runYoke(ws, ['run'], SLOW)).exitCode).toBe(1);
    const drifted = await runYoke(ws, ['check']);
    expect(drifted.exitCode, drifted.stderr).toBe(1);
    expect(drifted.stdout).toContain('FAIL  protected files changed since the baseline');

    const refresh = await runYoke(ws, ['protect', 'refresh', '--why', 'stricter add test']);
    expect(refresh.exitCode, refresh.stderr).toBe(0);
    expect(refresh.stdout).toMatch(/tests\/math\.test\.js: modified/);
    const refreshed = (await readJournal(ws)).find((record) => record.type === 'protect.refreshed');
    expect(refreshed?.payload).toMatchObject({
      previous: digest, why: 'stricter add test',
      changes: [{ path: 'tests/math.test.js', kind: 'modified', before: sha(MATH_TEST), after: sha(stricter) }],
    });
    const newDigest = (refreshed?.payload as { protection: { digest: string } }).protection.digest;
    expect((await runYoke(ws, ['protect', 'refresh'])).stdout).toMatch(/nothing to refresh/);

    const again = await runYoke(ws, ['run'], SLOW);
    expect(again.exitCode, again.stderr).toBe(0);
    const finished = (await readJournal(ws)).filter((record) => record.type === 'run.finished');
    expect(finished.at(-1)?.payload).toMatchObject({ exitCode: 0, protection: newDigest });
    const verify = await runYoke(ws, ['replay', '--verify']);
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
    const history = JSON.parse((await runYoke(ws, ['protect', 'status', '--json'])).stdout) as { unchanged: boolean; history: Array<{ kind: string; why: string | null }> };
    expect(history).toMatchObject({ unchanged: true, history: [{ kind: 'baseline', why: null }, { kind: 'refresh', why: 'stricter add test' }] });
  }, TIMEOUT);

  it('§16 goal: a criterion that changes a protected (git-ignored) file is not accepted: the report measures the digest when the criteria have run, it does not copy the baseline\'s', async () => {
    // `npm test` leaves a stamp in a git-ignored folder under the protected tests/: the source tree looks the same, the protection does not
    const pkg = `${JSON.stringify({ name: 'calc', private: true, scripts: { test: 'node tests/math.test.js && mkdir -p tests/out && echo ran > tests/out/stamp' } }, null, 2)}\n`;
    const ws = await goalProject({ worker: [{ write: { 'src/math.js': 'exports.add = (a, b) => a + b;\n' }, notes: 'DONE' }] }, ['max-iterations 1'], { 'package.json': pkg, '.gitignore': 'tests/out/\n' });
    const result = await runYoke(ws, ['run'], SLOW);
    expect(result.exitCode, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/goal blocked \(attempts\)/);
    const records = await readJournal(ws);
    const digest = (records.find((record) => record.type === 'protect.baseline')?.payload as { protection: { digest: string } }).protection.digest;
    const run = records.find((record) => record.type === 'run.started')?.run ?? '';
    const report = JSON.parse(await ws.read(`.loop/proof/${run}/report.json`)) as { status: string; source: { matches: boolean }; criteria: Array<{ status: string }>; protection: { digest: string; baseline: string; unchanged: boolean } };
    expect(report).toMatchObject({ status: 'failed', source: { matches: true }, criteria: [{ status: 'passed' }], protection: { baseline: digest, unchanged: false } });
    expect(report.protection.digest).not.toBe(digest);
    expect(await ws.read('.loop/guard-results.md')).toContain('the protected files (acceptance infrastructure) differ from their baseline after the criteria ran');
  }, TIMEOUT);

  it('§16 goal: `accept tests npm test` cannot pass by emptying the tests and the test script', async () => {
    const ws = await goalProject({
      after: { worker: { delete: ['tests'], write: { 'package.json': '{"scripts":{"test":"true"}}\n' }, notes: 'DONE' } },
    }, ['max-iterations 2']);
    const result = await runYoke(ws, ['run'], SLOW);
    expect(result.exitCode, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/goal blocked \(attempts\)/);
    expect((await shellCalls(ws.sideDir)).map((call) => call.iteration)).toEqual([1, 2]);
    expect(await ws.read('tests/math.test.js')).toBe(MATH_TEST);
    expect(await ws.read('package.json')).toBe(PACKAGE);
    const records = await readJournal(ws);
    // acceptance never ran on the emptied tests: every attempt was a protected-file violation
    expect(records.filter((record) => record.type === 'effect.started' && (record.payload as { kind: string }).kind === 'acceptance.check')).toEqual([]);
    expect(await ws.read('.loop/guard-results.md')).toMatch(/`package\.json` — modified[\s\S]*`tests\/math\.test\.js` — deleted, protected by `protect tests\/`; restored/);
  }, TIMEOUT);

  it('§16 loop: .skip, a deleted test, package.json\'s test script, chmod -x on a hook and a guard script, and a git-ignored fixture are each restored before the next call', async () => {
    const testA = "const test = require('node:test');\nconst assert = require('node:assert');\nconst fs = require('node:fs');\nconst want = JSON.parse(fs.readFileSync(__dirname + '/fixtures/expected.json', 'utf8')).v;\ntest('v', () => assert.strictEqual(require('../src/v.js'), want));\n";
    const testB = "const test = require('node:test');\nconst assert = require('node:assert');\ntest('v is a number', () => assert.strictEqual(typeof require('../src/v.js'), 'number'));\n";
    const pkg = `${JSON.stringify({ name: 'v', private: true, scripts: { test: 'node --test tests/' } })}\n`;
    const check = '#!/bin/sh\ngrep -q "module.exports" src/v.js\n';
    const hook = '#!/bin/sh\nnpm test\n';
    const ws = await makeWorkspace((paths) => ({
      '.loop/yoke.conf': `${['mode loop', `agent cmd sh ${paths.side('agent.sh')}`, 'guard tests npm test', 'guard shape sh scripts/check.sh', 'protect auto', 'max-iterations 8', 'commit off'].join('\n')}\n`,
      '.loop/plan.md': '# Plan\n\nMake v 2.\n',
      '.loop/protocol.md': '# Protocol\n',
      '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
      '.loop/.gitignore': '.journal/\n.stash/\n',
      '.gitignore': 'tests/fixtures/\n',
      'package.json': pkg,
      'src/v.js': 'module.exports = 1;\n',
      'tests/a.test.js': testA,
      'tests/b.test.js': testB,
      'tests/fixtures/expected.json': '{"v":2}\n',
      'scripts/check.sh': check,
      '.husky/pre-commit': hook,
    }));
    workspaces.push(ws);
    await chmod(ws.abs('scripts/check.sh'), 0o755);
    await chmod(ws.abs('.husky/pre-commit'), 0o755);
    await ws.git(['add', '-A']);
    await ws.git(['commit', '-q', '-m', 'executable scripts']);
    const seen = (n: number) => ({ sh: `mkdir -p "$SIDE/seen-${n}" && cp tests/a.test.js package.json tests/fixtures/expected.json "$SIDE/seen-${n}/" && { test -f tests/b.test.js && echo yes || echo no; } > "$SIDE/seen-${n}/b" && stat -c %a scripts/check.sh .husky/pre-commit > "$SIDE/seen-${n}/modes" && cp .loop/guard-results.md "$SIDE/seen-${n}/results.md"` });
    await installShellAgent(ws.sideDir, {
      worker: [
        [{ sh: "sed -i 's/^test(/test.skip(/' tests/a.test.js tests/b.test.js" }, { notes: 'DONE' }],
        [seen(2), { delete: ['tests/a.test.js'] }, { notes: 'DONE' }],
        [seen(3), { sh: "sed -i 's#node --test tests/#true#' package.json" }, { notes: 'DONE' }],
        [seen(4), { sh: 'chmod -x .husky/pre-commit scripts/check.sh' }, { notes: 'DONE' }],
        [seen(5), { write: { 'tests/fixtures/expected.json': '{"v":1}\n' } }, { notes: 'DONE' }],
        [seen(6), { write: { 'src/v.js': 'module.exports = 2;\n' } }, { notes: 'DONE' }],
      ],
    });
    const result = await runYoke(ws, ['run'], SLOW);
    expect(result.exitCode, result.stderr).toBe(0);
    expect((await shellCalls(ws.sideDir)).map((call) => call.iteration)).toEqual([1, 2, 3, 4, 5, 6]);
    const expectRestored = async (n: number) => {
      expect(await ws.sideText(`seen-${n}/a.test.js`)).toBe(testA);
      expect(await ws.sideText(`seen-${n}/package.json`)).toBe(pkg);
      expect(await ws.sideText(`seen-${n}/expected.json`)).toBe('{"v":2}\n');
      expect(await ws.sideText(`seen-${n}/b`)).toBe('yes\n');
      expect(await ws.sideText(`seen-${n}/modes`)).toBe('755\n755\n');
    };
    for (const n of [2, 3, 4, 5, 6]) await expectRestored(n);
    expect(await ws.sideText('seen-2/results.md')).toMatch(/`tests\/a\.test\.js` — modified[\s\S]*`tests\/b\.test\.js` — modified/);
    expect(await ws.sideText('seen-3/results.md')).toMatch(/`tests\/a\.test\.js` — deleted, protected by `protect tests\/`; restored/);
    expect(await ws.sideText('seen-4/results.md')).toMatch(/`package\.json` — modified, protected by `protect package\.json`/);
    expect(await ws.sideText('seen-5/results.md')).toMatch(/`\.husky\/pre-commit` — its mode was changed[\s\S]*`scripts\/check\.sh` — its mode was changed, protected by `protect scripts\/check\.sh`/);
    expect(await ws.sideText('seen-5/results.md')).toContain('All guards were skipped');
    // the fixture is git-ignored, and still protected
    expect(await ws.sideText('seen-6/results.md')).toMatch(/`tests\/fixtures\/expected\.json` — modified/);
    expect(await ws.read('.loop/guard-results.md')).toMatch(/All 2 guard\(s\) passed/);
    expect(((await stat(ws.abs('scripts/check.sh'))).mode & 0o777).toString(8)).toBe('755');
    // guards ran only in the iteration without a violation
    const guardRuns = (await readJournal(ws)).filter((record) => record.type === 'effect.started' && (record.payload as { kind: string }).kind === 'check.run');
    expect(guardRuns).toHaveLength(2);
  }, TIMEOUT);

  it('§16 stories: `protect auto` covers a story\'s check script; a worker that rewrites it is restored and the story passes only on real work', async () => {
    const checkScript = '#!/bin/sh\ntest -f out-S1.txt\n';
    const ws = await makeWorkspace((paths) => ({
      '.loop/yoke.conf': `mode stories\nagent cmd sh ${paths.side('agent.sh')}\nprotect auto\n`,
      '.loop/prd.yaml': 'stories:\n  - id: S1\n    title: Output\n    acceptance:\n      - text: the output exists\n        check: sh checks/s1.sh\n',
      '.loop/protocol.md': '# Protocol\n',
      '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
      '.loop/.gitignore': '.journal/\n.stash/\n',
      'checks/s1.sh': checkScript,
    }));
    workspaces.push(ws);
    await installShellAgent(ws.sideDir, {
      worker: [
        { write: { 'checks/s1.sh': 'exit 0\n' }, notes: 'DONE' },
        { record: { 'checks/s1.sh': 'seen-2.sh' }, write: { 'out-S1.txt': 'done\n' }, notes: 'DONE' },
      ],
    });
    // prd.yaml's check names the script, so `auto` protects it, and `config check` says why
    const checked = await runYoke(ws, ['config', 'check']);
    expect(checked.exitCode, checked.stderr).toBe(0);
    expect(checked.stdout).toMatch(/checks\/s1\.sh +1 file\(s\) +protect auto \(line 3\): named by `check S1#1`/);
    const result = await runYoke(ws, ['run'], SLOW);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await shellCalls(ws.sideDir)).toHaveLength(2);
    expect(await ws.sideText('seen-2.sh')).toBe(checkScript);
    expect(await ws.read('checks/s1.sh')).toBe(checkScript);
    expect(await ws.sideText('prompts/worker-1.md')).toContain('- `checks/s1.sh`');
    const records = await readJournal(ws);
    const digest = (records.find((record) => record.type === 'protect.baseline')?.payload as { protection: { digest: string } }).protection.digest;
    // stories names the protection it ended under, as every lifecycle does
    expect(records.find((record) => record.type === 'run.finished')?.payload).toMatchObject({ exitCode: 0, reason: 'stories-done', protection: digest });
  }, TIMEOUT);

  it('§16 saga: a judge that weakens the test and writes PASS is overruled as FAIL and restored, a scoper\'s edit is restored too; the run ends on the intact baseline, which the next run does not blame on the user', async () => {
    const test = "require('node:assert').strictEqual(require('../src/w.js'), 'widget');\n";
    const weakened = '// nothing to check\n';
    const { ws } = await makeJudgedWorkspace({
      mode: 'saga',
      conf: ['guard tests node tests/w.test.js', 'protect tests/', 'max-chunks 2', 'max-iterations 3', 'max-judge-failures 3', 'commit off'],
      files: { 'tests/w.test.js': test, 'src/w.js': "module.exports = 'widget';\n" },
      script: {
        scoper: [
          { write: { '.loop/sub-plan.md': '# Chunk 1\n\nBuild the widget.\n', '.loop/saga-notes.md': 'STATUS: IN_PROGRESS\n', 'tests/w.test.js': weakened } },
          { write: { '.loop/saga-notes.md': 'STATUS: DONE\n' } },
        ],
        worker: [
          { record: { 'tests/w.test.js': 'seen-1.js' }, notes: 'DONE' },
          { record: { 'tests/w.test.js': 'seen-2.js', '.loop/verdict.md': 'verdict-1.md' }, notes: 'DONE' },
        ],
        judge: [
          { write: { 'tests/w.test.js': weakened, '.loop/verdict.md': 'VERDICT: PASS\nthe widget is built\n' } },
          { write: { '.loop/verdict.md': 'VERDICT: PASS\nthe widget is built\n' } },
        ],
      },
    });
    workspaces.push(ws);
    const result = await runYoke(ws, ['run'], SLOW);
    expect(result.exitCode, result.stderr).toBe(0);
    // the overruled PASS counted as a FAIL: the worker went again and a second judgment passed
    expect((await shellCalls(ws.sideDir)).map((call) => `${call.role}#${call.iteration}`)).toEqual(['scoper#0', 'worker#1', 'judge#1', 'worker#2', 'judge#2', 'scoper#0']);
    expect(result.stderr).toContain('judge overruled: FAIL, because the judge changed protected files');
    // restored after the scoper's call and after the judge's, before anyone else worked
    expect(await ws.sideText('seen-1.js')).toBe(test);
    expect(await ws.sideText('seen-2.js')).toBe(test);
    expect(await ws.read('tests/w.test.js')).toBe(test);
    expect(existsSync(join(ws.path, '.loop/.journal/blobs', sha(weakened)))).toBe(true);
    // the worker's feedback says why, and keeps the judge's own words quoted
    const overruled = await ws.sideText('verdict-1.md');
    expect(overruled).toMatch(/^VERDICT: FAIL\n/);
    expect(overruled).toMatch(/- modified tests\/w\.test\.js, protected by `protect tests\/` \(the judge's version is kept as blob [0-9a-f]{12}\); restored/);
    expect(overruled).toContain('> VERDICT: PASS\n> the widget is built');
    expect(await ws.sideText('prompts/judge-1.md')).toContain('overrules the verdict of a judge that changed them as FAIL');
    expect(await ws.sideText('prompts/scoper-1.md')).toMatch(/## Protected files \(acceptance infrastructure\)[\s\S]*do not plan a chunk that changes them[\s\S]*- `tests\/w\.test\.js`/);
    const records = await readJournal(ws);
    const digest = (records.find((record) => record.type === 'protect.baseline')?.payload as { protection: { digest: string } }).protection.digest;
    expect(records.find((record) => record.type === 'run.finished')?.payload).toMatchObject({ exitCode: 0, reason: 'saga-done', protection: digest });
    const status = JSON.parse((await runYoke(ws, ['protect', 'status', '--json'])).stdout) as { unchanged: boolean };
    expect(status.unchanged).toBe(true);
    const verify = await runYoke(ws, ['replay', '--verify']);
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
  }, TIMEOUT);

  it('§16 brute: the judge is told which files are protected, and a worker\'s edit to one fails that iteration before the judge is asked', async () => {
    const test = "require('node:assert').strictEqual(require('../src/w.js'), 'widget');\n";
    const { ws } = await makeJudgedWorkspace({
      mode: 'brute',
      conf: ['guard tests node tests/w.test.js', 'protect tests/', 'max-iterations 3', 'commit off'],
      files: { 'tests/w.test.js': test, 'src/w.js': "module.exports = 'gadget';\n" },
      script: {
        worker: [
          { write: { 'tests/w.test.js': '// nothing to check\n' }, notes: 'DONE' },
          { write: { 'src/w.js': "module.exports = 'widget';\n" }, notes: 'DONE' },
        ],
        judge: [{ write: { '.loop/verdict.md': 'VERDICT: PASS\nthe widget is built\n' } }],
      },
    });
    workspaces.push(ws);
    const result = await runYoke(ws, ['run'], SLOW);
    expect(result.exitCode, result.stderr).toBe(0);
    // iteration 1's DONE never reached the judge: the protected edit failed it first
    expect((await shellCalls(ws.sideDir)).map((call) => `${call.role}#${call.iteration}`)).toEqual(['worker#1', 'worker#2', 'judge#2']);
    const judged = await ws.sideText('prompts/judge-1.md');
    expect(judged).toContain('## Protected files (acceptance infrastructure)');
    expect(judged).toContain('is never a valid fix');
    expect(judged).toContain('- `tests/w.test.js`');
    expect(await ws.read('tests/w.test.js')).toBe(test);
  }, TIMEOUT);
});

describe('protected acceptance: bad input (issue 22)', () => {
  it('a glob that matches nothing is a warning from `yoke config check`, and `protect auto` is listed with why (a journey\'s flow file included)', async () => {
    const ws = await goalProject({}, ['protect "docs/**/*.golden"', 'journey smoke flows/smoke.yaml', 'base-url http://127.0.0.1:9']);
    const checked = await runYoke(ws, ['config', 'check']);
    expect(checked.exitCode, checked.stderr).toBe(0);
    expect(checked.stderr).toMatch(/yoke\.conf:6:1: warning: `protect docs\/\*\*\/\*\.golden` matches no file yet/);
    expect(checked.stdout).toMatch(/package\.json +1 file\(s\) +protect auto \(line 4\): read by `npm` in `accept tests`/);
    expect(checked.stdout).toMatch(/tests\/ +1 file\(s\) +protect auto \(line 4\): conventional test folder/);
    expect(checked.stdout).toMatch(/flows\/smoke\.yaml +0 file\(s\) +protect auto \(line 4\): the flow of `journey smoke`/);
    const json = JSON.parse((await runYoke(ws, ['config', 'check', '--json'])).stdout) as { protected: Array<{ pattern: string; files: number; auto: string | null }> };
    expect(json.protected).toEqual(expect.arrayContaining([{ pattern: 'package.json', line: 4, auto: 'read by `npm` in `accept tests`', files: 1 }, { pattern: 'docs/**/*.golden', line: 6, auto: null, files: 0 }]));
  }, TIMEOUT);

  it('a protected path outside the project is a config error (exit 2); a symlink that escapes refuses the run (exit 2), nothing journaled', async () => {
    const outside = await goalProject({}, ['protect ../secrets']);
    const run = await runYoke(outside, ['run'], SLOW);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/yoke\.conf:6:\d+: error: `\.\.\/secrets` contains a `\.\.` segment, which leaves the project/);
    expect(existsSync(journalPath(outside.path))).toBe(false);

    const linked = await goalProject({});
    await symlink('/etc/hostname', linked.abs('tests/host.txt'));
    const refused = await runYoke(linked, ['run'], SLOW);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/yoke\.conf:4: `protect tests\/` covers `tests\/host\.txt`, a symlink to `\/etc\/hostname` outside the project/);
    expect(await shellCalls(linked.sideDir)).toEqual([]);
    expect((await readJournal(linked)).filter((record) => record.type === 'protect.baseline')).toEqual([]);
    expect((await runYoke(linked, ['config', 'check'])).exitCode).toBe(2);
  }, TIMEOUT);

  it('a tampered baseline record refuses the workspace (exit 3), fails `replay --verify`, and `protect status` calls it tampering, not a user\'s change', async () => {
    const ws = await goalProject({ worker: [{ write: { 'src/math.js': 'exports.add = (a, b) => a + b;\n' } }] });
    expect((await runYoke(ws, ['run'], SLOW)).exitCode).toBe(0);
    // re-chained, so the journal itself is sound: only the baseline's digest no longer matches its files
    rewriteJournal(journalPath(ws.path), (record) => {
      if (record.type !== 'protect.baseline') return;
      const first = (record.payload as { protection: { files: Array<{ sha256: string }> } }).protection.files[0];
      if (first) first.sha256 = 'e'.repeat(64);
    });
    const refused = await runYoke(ws, ['run'], SLOW);
    expect(refused.exitCode, refused.stderr).toBe(3);
    expect(refused.stderr).toMatch(/the protection baseline\) was edited/);
    expect(await shellCalls(ws.sideDir)).toHaveLength(1);
    const seq = (await readJournal(ws)).find((record) => record.type === 'protect.baseline')?.seq;
    const verify = await runYoke(ws, ['replay', '--verify']);
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(1);
    expect(verify.stdout).toContain(`DIVERGED at seq ${String(seq)} (protect.baseline)`);
    expect(verify.stdout).toContain('the protection record was edited after it was written');
    const status = await runYoke(ws, ['protect', 'status', '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ tampered: { seq }, unchanged: false, drift: [] });
    const text = await runYoke(ws, ['protect', 'status']);
    expect(text.stdout).toContain(`TAMPERED: journal record ${String(seq)} (the protection baseline) was edited`);
    expect(text.stdout).not.toMatch(/changed since the baseline|modified/);
  }, TIMEOUT);
});
