// Spec §1 (the loop), end to end: the built CLI in real temp git repos with the scripted fake agent.
import { afterEach, describe, expect, it } from 'vitest';
import { agentCalls, grandchildPids } from '../support/fake-agent-script.js';
import { readJournal } from '../support/journal-records.js';
import { confHead } from '../support/loop-conf.js';
import { type LoopSetup, makeLoopWorkspace } from '../support/loop-workspace.js';
import { isAlive, killQuietly, markProcesses, type ProcessMark, waitUntil } from '../support/process-liveness.js';
import { type Workspace, runYoke, startYoke, writeScript } from '../support/workspace.js';

const TIMEOUT = 30_000;
const workspaces: Workspace[] = [];
const leftoverPids: ProcessMark[] = [];

async function setup(spec: LoopSetup): ReturnType<typeof makeLoopWorkspace> {
  const made = await makeLoopWorkspace(spec);
  workspaces.push(made.ws);
  return made;
}

afterEach(async () => {
  killQuietly(leftoverPids.splice(0));
  if (process.env.KEEP_E2E === '1') return;
  await Promise.all(workspaces.splice(0).map((ws) => ws.cleanup()));
});

const iterationsOf = async (ws: Workspace): Promise<number[]> =>
  (await agentCalls(ws.side('agent-calls.jsonl'))).map((call) => call.iteration);

describe('spec §1: the loop', () => {
  it('1.1 the spec is immutable from the agent’s perspective', async () => {
    const plan = '# Plan\n\nORIGINAL PLAN: build a widget.\n';
    const protocol = '# Protocol\n\nORIGINAL PROTOCOL: one step at a time.\n';
    const { ws, env } = await setup({
      conf: [...confHead(5), 'commit off'],
      plan,
      protocol,
      script: (paths) => ({
        steps: {
          '1': {
            write: {
              '.loop/plan.md': 'HACKED PLAN\n',
              '.loop/protocol.md': 'HACKED PROTOCOL\n',
              '.loop/yoke.conf': 'this is not a valid yoke.conf\n',
            },
            notes: 'IN_PROGRESS',
          },
          '2': {
            recordFile: [
              { path: '.loop/plan.md', to: paths.side('seen-plan.md') },
              { path: '.loop/protocol.md', to: paths.side('seen-protocol.md') },
              { path: '.loop/yoke.conf', to: paths.side('seen-conf') },
            ],
            notes: 'DONE',
          },
        },
      }),
    });
    const originalConf = await ws.read('.loop/yoke.conf');

    const result = await runYoke(ws, ['run'], { env });

    expect(result.exitCode, result.stderr).toBe(0);
    expect(await iterationsOf(ws)).toEqual([1, 2]);
    // what the agent saw at the start of iteration 2
    expect(await ws.sideText('seen-plan.md')).toBe(plan);
    expect(await ws.sideText('seen-protocol.md')).toBe(protocol);
    expect(await ws.sideText('seen-conf')).toBe(originalConf);
    // and what is on disk after the run
    expect(await ws.read('.loop/plan.md')).toBe(plan);
    expect(await ws.read('.loop/protocol.md')).toBe(protocol);
    expect(await ws.read('.loop/yoke.conf')).toBe(originalConf);
  }, TIMEOUT);

  it('1.1 loop: plan.md rewritten in the DONE iteration is not in the commit and is restored', async () => {
    const plan = '# Widget plan\n\nORIGINAL PLAN: build a widget.\n';
    const { ws, env } = await setup({
      conf: [...confHead(5), 'commit done'],
      plan,
      files: { '.yoke/context/DECISIONS.md': '# Decisions\n' },
      script: { steps: { '1': { write: { '.loop/plan.md': '# Hacked\n\nI did it all.\n', 'widget.txt': 'a widget\n' }, notes: 'DONE' } } },
    });
    const result = await runYoke(ws, ['run'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain('spec file(s) .loop/plan.md changed during the run; put back as the run holds them');
    const files = (await ws.git(['show', '--name-only', '--format=', 'HEAD'])).split('\n').filter(Boolean);
    expect(files).toContain('widget.txt');
    expect(files).not.toContain('.loop/plan.md');
    expect(await ws.read('.loop/plan.md')).toBe(plan);
    expect(await ws.git(['status', '--porcelain', '--', '.loop/plan.md'])).toBe('');
    // the done commit's decision entry is named after the user's plan, not the agent's
    expect(await ws.read('.yoke/context/DECISIONS.md')).toMatch(/— [0-9A-Z]{8}: Widget plan\n/);
  }, TIMEOUT);

  it('1.2 termination requires both signals', async () => {
    // it 1: DONE, guard fails → continue; it 2: guard passes, not DONE → continue; it 3: both → exit 0
    const script: LoopSetup['script'] = {
      steps: {
        '1': { notes: 'DONE' },
        '2': { write: { 'ok.txt': 'ok\n' }, notes: 'IN_PROGRESS' },
      },
      default: { notes: 'DONE' },
    };
    const full = await setup({ conf: [...confHead(5), 'guard ok test -f ok.txt'], script });
    const done = await runYoke(full.ws, ['run'], { env: full.env });
    expect(done.exitCode, done.stderr).toBe(0);
    expect(await iterationsOf(full.ws)).toEqual([1, 2, 3]);

    // the same agent with a cap of 2: neither signal alone ended the loop, so the cap does (exit 1)
    const capped = await setup({ conf: [...confHead(2), 'guard ok test -f ok.txt'], script });
    const cap = await runYoke(capped.ws, ['run'], { env: capped.env });
    expect(cap.exitCode, cap.stderr).toBe(1);
    expect(await iterationsOf(capped.ws)).toEqual([1, 2]);
  }, TIMEOUT);

  it('1.3 guard feedback is visible', async () => {
    const { ws, env } = await setup({
      conf: [
        ...confHead(5),
        'guard echoer cat value.txt',
        // printf keeps the marker out of the command text, which guard-results.md may quote
        "guard failer test -f fixed.txt || { printf 'not-%s\\n' fixed-yet >&2; exit 3; }",
      ],
      script: (paths) => ({
        steps: {
          '1': { write: { 'value.txt': 'alpha-1\n' }, notes: 'DONE' },
          '2': [
            { recordFile: { path: '.loop/guard-results.md', to: paths.side('seen-2.md') } },
            { write: { 'value.txt': 'beta-2\n', 'fixed.txt': 'fixed\n' }, notes: 'DONE' },
          ],
        },
      }),
    });

    const result = await runYoke(ws, ['run'], { env });

    expect(result.exitCode, result.stderr).toBe(0);
    expect(await iterationsOf(ws)).toEqual([1, 2]);
    // iteration 2 saw iteration 1's results: both guards, with their output
    const seen = await ws.sideText('seen-2.md');
    expect(seen, 'guard-results.md existed at the start of iteration 2').not.toBeNull();
    expect(seen).toContain('echoer');
    expect(seen).toContain('alpha-1');
    expect(seen).toContain('failer');
    expect(seen).toContain('not-fixed-yet');
    // rewritten after the last iteration too
    const final = await ws.read('.loop/guard-results.md');
    expect(final).toContain('echoer');
    expect(final).toContain('beta-2');
    expect(final).toContain('failer');
    expect(final).not.toContain('not-fixed-yet');
  }, TIMEOUT);

  it('1.4 boundary violations block guards', async () => {
    const { ws, env } = await setup({
      files: { 'protected/data.txt': 'original\n', 'src/app.txt': 'app\n' },
      conf: (paths) => [...confHead(5), 'no-modify protected/', `guard spy echo ran >> ${paths.side('guard-ran.log')}`],
      script: (paths) => ({
        steps: {
          '1': { write: { 'protected/data.txt': 'tampered\n', 'src/app.txt': 'app v2\n' }, notes: 'DONE' },
          '2': [
            { recordFile: { path: '.loop/guard-results.md', to: paths.side('seen-2.md') } },
            { write: { 'protected/data.txt': 'original\n' }, notes: 'DONE' },
          ],
        },
      }),
    });

    const result = await runYoke(ws, ['run'], { env });

    expect(result.exitCode, result.stderr).toBe(0);
    expect(await iterationsOf(ws)).toEqual([1, 2]);
    // the guard ran only in iteration 2, after the violation was undone
    expect(await ws.sideLines('guard-ran.log')).toEqual(['ran']);
    const seen = await ws.sideText('seen-2.md');
    expect(seen).toContain('protected/data.txt');
  }, TIMEOUT);

  it('every agent call gets the rendered worker prompt and its environment (DESIGN §4)', async () => {
    const { ws, env } = await setup({
      conf: [...confHead(5), 'commit off'],
      script: (paths) => ({
        steps: { '1': { recordPrompt: paths.side('prompt-1.txt'), notes: 'IN_PROGRESS' } },
        default: { recordPrompt: paths.side('prompt-2.txt'), usage: { input_tokens: 10, output_tokens: 2 }, notes: 'DONE' },
      }),
    });

    const result = await runYoke(ws, ['run'], { env });

    expect(result.exitCode, result.stderr).toBe(0);
    const calls = await agentCalls(env.FAKE_AGENT_LOG);
    expect(calls.map((c) => [c.role, c.iteration])).toEqual([['worker', 1], ['worker', 2]]);
    expect(new Set(calls.map((c) => c.call)).size).toBe(2);
    expect(new Set(calls.map((c) => c.run)).size).toBe(1);
    for (const call of calls) {
      expect(call.call).toBeTruthy();
      expect(call.run).toBeTruthy();
      expect(call.loopDir).toBe(ws.abs('.loop'));
      expect(call.usageFile).toBeTruthy();
      expect(call.promptBytes).toBeGreaterThan(0);
    }
    const prompt = await ws.sideText('prompt-2.txt');
    expect(prompt).toContain('iteration 2 of');
    expect(prompt).toContain(ws.abs('.loop'));
    expect(prompt).not.toMatch(/\{\{\w+\}\}/);
  }, TIMEOUT);

  it('1.5 interrupts are clean', async () => {
    const { ws, env } = await setup({
      conf: [...confHead(5), 'commit off'],
      script: { steps: { '1': { stdout: 'working\n', spawnGrandchild: true, hang: true } }, default: { notes: 'DONE' } },
    });
    const log = env.FAKE_AGENT_LOG;
    const yoke = startYoke(ws, ['run'], { env });

    const started = await waitUntil(async () => (await agentCalls(log)).length === 1 && (await grandchildPids(log)).length === 1, 15_000);
    expect(started, 'the fake agent started and spawned its grandchild').toBe(true);
    const [call] = await agentCalls(log);
    const [grandchild] = await grandchildPids(log);
    if (call === undefined || grandchild === undefined) throw new Error('unreachable');
    leftoverPids.push(...markProcesses(call.pid, grandchild));
    expect(isAlive(call.pid)).toBe(true);
    expect(isAlive(grandchild)).toBe(true);

    const sentAt = Date.now();
    yoke.kill('SIGINT');
    const interrupted = await yoke;
    const elapsed = Date.now() - sentAt;

    expect(interrupted.exitCode, interrupted.stderr).toBe(130);
    expect(elapsed).toBeLessThan(5_000);
    // the agent's whole process group is gone (allow a moment for the kernel to tear it down)
    expect(await waitUntil(() => !isAlive(call.pid) && !isAlive(grandchild), 1_000)).toBe(true);
    const records = await readJournal(ws);
    expect(records.at(-1)?.type).toBe('run.interrupted');

    // `yoke run` resumes the same run and finishes it
    const resumeEnv = await writeScript(ws, { default: { notes: 'DONE' } }, 'resume-script');
    const resumed = await runYoke(ws, ['run'], { env: resumeEnv });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(`${resumed.stdout}\n${resumed.stderr}`).toMatch(/resum/i);
    const after = await readJournal(ws);
    expect(after.filter((r) => r.type === 'run.started')).toHaveLength(1);
    expect(after.at(-1)?.type).toBe('run.finished');
    expect((await agentCalls(log)).length).toBeGreaterThanOrEqual(2);
  }, TIMEOUT);
});

