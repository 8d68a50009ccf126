// Spec §5 (config), end to end: the built CLI in real temp git repos with the scripted fake agent.
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { agentCalls, fakeAgentCommand } from '../support/fake-agent-script.js';
import { confHead } from '../support/loop-conf.js';
import { type LoopSetup, makeLoopWorkspace } from '../support/loop-workspace.js';
import { waitUntil } from '../support/process-liveness.js';
import { snapshotTree, visibleFiles } from '../support/tree-snapshot.js';
import { makeWorkspace, runYoke, type Workspace, writeScript } from '../support/workspace.js';

const TIMEOUT = 30_000;
const workspaces: Workspace[] = [];

async function setup(spec: LoopSetup): ReturnType<typeof makeLoopWorkspace> {
  const made = await makeLoopWorkspace(spec);
  workspaces.push(made.ws);
  return made;
}

afterEach(async () => {
  if (process.env.KEEP_E2E === '1') return;
  await Promise.all(workspaces.splice(0).map((ws) => ws.cleanup()));
});

const iterationsOf = async (ws: Workspace): Promise<number[]> =>
  (await agentCalls(ws.side('agent-calls.jsonl'))).map((call) => call.iteration);

/** `yoke run` on a conf that must be refused: exit 2 naming `.loop/yoke.conf:<line>:<col>`, nothing touched. */
async function expectRefused(lines: string[], badLine: number, column?: number): Promise<string> {
  const { ws, env } = await setup({ conf: lines, script: { default: { notes: 'DONE' } } });
  const before = await snapshotTree(ws.path, ['.git']);
  const statusBefore = await ws.git(['status', '--porcelain', '--untracked-files=all']);
  const headBefore = await ws.git(['rev-parse', 'HEAD']);

  const result = await runYoke(ws, ['run'], { env });

  const where = new RegExp(`\\.loop/yoke\\.conf:${badLine}:${column ?? '\\d+'}(?!\\d)`);
  expect(result.exitCode, `${lines[badLine - 1]}\n${result.stderr}`).toBe(2);
  expect(result.stderr).toMatch(where);
  expect(result.stderr, 'no stack trace').not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(await snapshotTree(ws.path, ['.git']), 'the workspace is byte-identical').toEqual(before);
  expect(await ws.git(['status', '--porcelain', '--untracked-files=all'])).toBe(statusBefore);
  expect(await ws.git(['rev-parse', 'HEAD'])).toBe(headBefore);
  expect(await ws.exists('.loop/.journal')).toBe(false);
  expect(await agentCalls(env.FAKE_AGENT_LOG)).toEqual([]);
  return result.stderr;
}

describe('spec §5: config', () => {
  it('5.1 valid configs parse: every loop directive together', async () => {
    const { ws, env } = await setup({
      files: { 'src/main.rs': 'fn main() {}\n', 'src/lib.rs': '\n' },
      conf: (paths) => [
        '# every directive that applies to loop mode',
        '',
        'mode loop',
        fakeAgentCommand(),
        'model fake-model-1',
        'max-iterations 4',
        '',
        'allow src/',
        'allow docs/',
        'no-modify src/main.rs',
        `guard spy echo g >> ${paths.side('guard.log')}`,
        'guard lib-exists test -f src/lib.rs',
        `periodic every2 2 echo p >> ${paths.side('periodic.log')}`,
        `guard-after every2 after-every2 echo ga >> ${paths.side('guard-after.log')}`,
        ...['run-start', 'iteration-start', 'iteration-end', 'done', 'bailout'].map(
          (event) => `hook ${event} echo ${event} >> ${paths.side('hooks.log')}`,
        ),
        'idle-timeout 5m',
        'guard-timeout 90s',
        'commit each',
        'budget attempts 10',
        'budget wall-minutes 10',
      ],
      script: {
        steps: { '1': { write: { 'src/lib.rs': 'pub fn one() {}\n' }, notes: 'IN_PROGRESS' } },
        default: {
          write: { 'src/lib.rs': 'pub fn two() {}\n', 'docs/notes.md': 'docs\n' },
          usage: { input_tokens: 100, output_tokens: 20, model: 'fake-model-1' },
          notes: 'DONE',
        },
      },
    });

    const result = await runYoke(ws, ['run'], { env });

    expect(result.exitCode, result.stderr).toBe(0);
    expect(await iterationsOf(ws)).toEqual([1, 2]);
    expect(await ws.sideLines('guard.log')).toEqual(['g', 'g']);
    expect(await ws.sideLines('periodic.log')).toEqual(['p']);
    expect(await ws.sideLines('guard-after.log')).toEqual(['ga']);
    const hooksDone = await waitUntil(async () => (await ws.sideLines('hooks.log')).includes('done'), 3_000);
    expect(hooksDone, 'the done hook fired').toBe(true);
    const hooks = await ws.sideLines('hooks.log');
    expect(hooks.filter((h) => h === 'run-start')).toHaveLength(1);
    expect(hooks.filter((h) => h === 'iteration-start')).toHaveLength(2);
    expect(hooks.filter((h) => h === 'iteration-end')).toHaveLength(2);
    expect(hooks).not.toContain('bailout');
    // commit each: one commit per iteration whose guards passed, with the trailers
    const yokeCommits = (await ws.gitLog()).filter((c) => c.message.includes('Yoke-Run:'));
    expect(yokeCommits).toHaveLength(2);
    for (const commit of yokeCommits) expect(commit.message).toContain('Yoke-Effect:');
  }, TIMEOUT);

  it('5.1 valid configs parse: the `yoke init loop` templates', async () => {
    const ws = await makeWorkspace({ 'README.md': '# a project\n' });
    workspaces.push(ws);

    const init = await runYoke(ws, ['init', 'loop']);
    expect(init.exitCode, init.stderr).toBe(0);
    for (const file of ['yoke.conf', 'protocol.md', 'plan.md', 'notes.md']) {
      expect(await ws.exists(`.loop/${file}`), file).toBe(true);
    }
    expect(await ws.read('.loop/.gitignore')).toBe('.journal/\n.stash/\nproof/\n');
    expect((await ws.read('.loop/notes.md')).split('\n')[0]).toBe('STATUS: IN_PROGRESS');
    expect(await ws.read('.gitignore').catch(() => null), 'the project .gitignore is not touched').toBeNull();

    // init refuses to overwrite; --force does
    await ws.write('.loop/plan.md', 'my plan\n');
    const again = await runYoke(ws, ['init', 'loop']);
    expect(again.exitCode).not.toBe(0);
    expect(await ws.read('.loop/plan.md')).toBe('my plan\n');
    const forced = await runYoke(ws, ['init', 'loop', '--force']);
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect(await ws.read('.loop/plan.md')).not.toBe('my plan\n');

    // the template conf, with only its agent line pointed at the fake agent, runs
    const conf = await ws.read('.loop/yoke.conf');
    expect(conf).toMatch(/^agent .*$/m);
    await ws.write('.loop/yoke.conf', conf.replace(/^agent .*$/m, fakeAgentCommand()));
    const env = await writeScript(ws, { default: { notes: 'DONE' } });
    const run = await runYoke(ws, ['run'], { env });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await iterationsOf(ws)).toEqual([1]);
  }, TIMEOUT);

  it('5.2 invalid configs fail loudly', async () => {
    const head = ['# a test conf', '', ...confHead(3)];
    await Promise.all([
      // unknown directive: located at its first character
      expectRefused([...head, 'frobnicate 3'], 6, 1),
      // malformed values
      expectRefused(['# a test conf', '', 'mode loop', fakeAgentCommand(), 'max-iterations lots'], 5),
      expectRefused([...head, 'idle-timeout 5 minutes'], 6),
      expectRefused([...head, 'commit sometimes'], 6),
      expectRefused(['mode sideways', fakeAgentCommand(), 'max-iterations 3'], 1),
      // a duplicate name
      expectRefused([...head, 'guard a true', 'guard a false'], 7),
      // a missing required field
      expectRefused([...head, 'guard lonely'], 6),
    ]);
  }, TIMEOUT);

  it('5.3 scope rules resolve most-specific-wins', async () => {
    const files = { 'src/main.rs': 'fn main() {}\n', 'src/other.rs': '\n', 'src/gen/out.rs': '\n', 'README.md': 'readme\n' };
    const run = async (rules: string[], touch: string): Promise<{ exitCode: number | undefined; guardRuns: number; feedback: string }> => {
      const { ws, env } = await setup({
        files,
        conf: (paths) => [...confHead(2), ...rules, `guard spy echo ran >> ${paths.side('guard.log')}`],
        script: { default: { write: { [touch]: `changed ${touch}\n` }, notes: 'DONE' } },
      });
      const result = await runYoke(ws, ['run'], { env });
      return {
        exitCode: result.exitCode,
        guardRuns: (await ws.sideLines('guard.log')).length,
        feedback: await ws.read('.loop/guard-results.md'),
      };
    };

    const allowSrc = ['allow src/', 'no-modify src/main.rs'];
    const reversed = ['no-modify src/', 'allow src/gen/'];
    const [other, main, gen, src] = await Promise.all([
      run(allowSrc, 'src/other.rs'),
      run(allowSrc, 'src/main.rs'),
      // the other way round: a longer allow inside a no-modify
      run(reversed, 'src/gen/out.rs'),
      run(reversed, 'src/other.rs'),
    ]);
    expect(other).toMatchObject({ exitCode: 0, guardRuns: 1 });
    expect(main).toMatchObject({ exitCode: 1, guardRuns: 0 });
    expect(main.feedback).toContain('src/main.rs');
    expect(gen).toMatchObject({ exitCode: 0, guardRuns: 1 });
    expect(src).toMatchObject({ exitCode: 1, guardRuns: 0 });
    expect(src.feedback).toContain('src/other.rs');
  }, TIMEOUT);

  it('5.3 with an allow list, a path no rule matches is outside the boundary', async () => {
    const { ws, env } = await setup({
      files: { 'src/main.rs': 'fn main() {}\n', 'README.md': 'readme\n' },
      conf: (paths) => [...confHead(2), 'allow src/', `guard spy echo ran >> ${paths.side('guard.log')}`],
      script: { default: { write: { 'README.md': 'rewritten\n' }, notes: 'DONE' } },
    });
    const result = await runYoke(ws, ['run'], { env });
    expect(result.exitCode, result.stderr).toBe(1);
    expect(await ws.sideLines('guard.log')).toEqual([]);
    expect(await ws.read('.loop/guard-results.md')).toContain('README.md');
  }, TIMEOUT);

  it('5.4 guard-after requires its periodic', async () => {
    const stderr = await expectRefused(
      ['# a test conf', ...confHead(3), 'periodic lint 2 true', 'guard-after nightly late-check true'],
      6,
    );
    expect(stderr).toContain('nightly');
  }, TIMEOUT);

  it('5.5 hooks are fire-and-forget', async () => {
    const secret = 'ZEBRA-SECRET';
    const { ws, env } = await setup({
      conf: (paths) => [
        ...confHead(5),
        `guard spy echo g >> ${paths.side('guard.log')}`,
        // printf builds the marker at run time, so the conf itself never contains it
        `hook iteration-end printf '%s-%s\\n' ZEBRA SECRET; printf '%s-%s\\n' ZEBRA SECRET >&2; echo ran >> ${paths.side('hook.log')}; exit 7`,
        'hook run-start /nonexistent/yoke-missing-hook --flag',
        "hook iteration-start printf '%s-%s\\n' ZEBRA SECRET",
      ],
      script: (paths) => ({
        steps: { '1': { notes: 'IN_PROGRESS' } },
        default: [
          { recordPrompt: paths.side('prompt-2.txt') },
          { recordFile: { path: '.loop/guard-results.md', to: paths.side('guard-results-2.md') } },
          { notes: 'DONE' },
        ],
      }),
    });

    const result = await runYoke(ws, ['run'], { env });

    // exit code and iteration flow unaffected
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await iterationsOf(ws)).toEqual([1, 2]);
    // guard evaluation unaffected
    expect(await ws.sideLines('guard.log')).toEqual(['g', 'g']);
    // the failing hooks ran and were reported on stderr
    expect(await waitUntil(async () => (await ws.sideLines('hook.log')).length === 2, 3_000)).toBe(true);
    expect(result.stderr).toMatch(/hook/i);
    expect(result.stderr).toMatch(/iteration-end|\b7\b/);
    expect(result.stderr).toMatch(/run-start|yoke-missing-hook/);
    // hook output reaches no file the agent reads: not the project, not .loop/ outside dot folders
    const agentVisible = [...(await visibleFiles(ws.path)), ...(await visibleFiles(ws.abs('.loop')))];
    expect(agentVisible.length).toBeGreaterThan(3);
    for (const file of agentVisible) {
      expect(await readFile(file, 'utf8'), file).not.toContain(secret);
    }
    expect(await ws.read('.loop/.gitignore')).not.toContain(secret);
    expect(await ws.sideText('prompt-2.txt')).not.toContain(secret);
    expect(await ws.sideText('guard-results-2.md')).not.toContain(secret);
  }, TIMEOUT);
});
