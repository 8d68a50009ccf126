// DESIGN §5 end to end: output modes (--json, --quiet), the read commands' JSON, resuming and
// --fresh, --max-iterations, --help everywhere, usage errors, and YOKE_DEBUG. Built CLI, real git,
// the scripted fake agent.
import { mkdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { expectRefusal, stackLines } from '../support/cli-expect.js';
import { agentCalls, grandchildPids, writeScript, type FakeScript } from '../support/fake-agent-script.js';
import { appendTornLine, journalLines, rewriteJournal } from '../support/journal-edit.js';
import { journalPath, readJournal, type JournalRecord } from '../support/journal-records.js';
import { confHead } from '../support/loop-conf.js';
import { makeLoopWorkspace } from '../support/loop-workspace.js';
import { isAlive, markProcesses, waitUntil } from '../support/process-liveness.js';
import { snapshotTree } from '../support/tree-snapshot.js';
import { cleanupAfterEach } from '../support/e2e-cleanup.js';
import { runYoke, startYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 30_000;
const { workspaces, leftoverPids } = cleanupAfterEach();

async function setup(script: FakeScript, conf: string[] = [...confHead(3), 'commit off']) {
  const made = await makeLoopWorkspace({ conf, script });
  workspaces.push(made.ws);
  return made;
}

/** An agent and a guard that both talk, and finish in iteration 2. */
const TALKATIVE: FakeScript = {
  steps: { '1': { stdout: 'AGENT-SAYS-HELLO\n', stderr: 'AGENT-SAYS-OOPS\n', notes: 'IN_PROGRESS' } },
  default: { stdout: 'AGENT-SAYS-HELLO\n', notes: 'DONE' },
};
const TALKATIVE_CONF = [...confHead(3), 'commit off', 'guard echoer echo GUARD-SAYS-HI'];

/** Parse stdout as NDJSON; fails on any line that is not a JSON object. */
function ndjson(stdout: string): JournalRecord[] {
  // (execa strips the final newline)
  return stdout.split('\n').map((line) => {
    const value = JSON.parse(line) as JournalRecord;
    expect(typeof value.seq, line).toBe('number');
    expect(typeof value.type, line).toBe('string');
    return value;
  });
}

/** Leave the workspace with an unfinished run: yoke is killed (-9) right after journal record 3. */
async function crashEarly(ws: Workspace, env: Record<string, string>): Promise<string> {
  const crashed = await runYoke(ws, ['run', '--quiet'], { env: { ...env, YOKE_FAILPOINT: 'crash-after:3' } });
  expect(crashed.signal, crashed.stderr).toBe('SIGKILL');
  const started = (await readJournal(ws)).find((r) => r.type === 'run.started');
  if (!started) throw new Error('the crashed run left no run.started');
  return started.run;
}

describe('yoke run output modes', () => {
  it('--json prints only journal records on stdout; agent and guard output go to stderr', async () => {
    const { ws, env } = await setup(TALKATIVE, TALKATIVE_CONF);

    const result = await runYoke(ws, ['run', '--json'], { env });

    expect(result.exitCode, result.stderr).toBe(0);
    const printed = ndjson(result.stdout);
    expect(printed).toEqual(await readJournal(ws));
    expect(printed.map((r) => r.seq)).toEqual(printed.map((_, index) => index + 1));
    expect(printed.at(-1)?.type).toBe('run.finished');
    // (the guard's output is also journaled, inside its record's excerpt, which is fine)
    const stdoutLines = result.stdout.split('\n');
    for (const marker of ['AGENT-SAYS-HELLO', 'AGENT-SAYS-OOPS', 'GUARD-SAYS-HI']) {
      expect(stdoutLines.includes(marker), `${marker} printed raw on stdout`).toBe(false);
      expect(result.stderr.split('\n')).toContain(marker);
    }
    expect(result.stdout.includes('AGENT-SAYS-HELLO'), 'agent output is not in any record').toBe(false);
    // no progress lines either: stderr carries only what the processes printed
    expect(result.stderr).not.toMatch(/^yoke: /m);
  }, TIMEOUT);

  it('--quiet prints no agent or guard output and no progress; status and runs --json then describe the finished run', async () => {
    const { ws, env } = await setup(TALKATIVE, TALKATIVE_CONF);

    const result = await runYoke(ws, ['run', '--quiet'], { env });

    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    for (const marker of ['AGENT-SAYS-HELLO', 'AGENT-SAYS-OOPS', 'GUARD-SAYS-HI']) expect(result.stderr).not.toContain(marker);
    expect(result.stderr).not.toMatch(/^yoke: (?!warning:)/m);
    expect((await agentCalls(env.FAKE_AGENT_LOG)).length).toBe(2);

    const [started] = (await readJournal(ws)).filter((r) => r.type === 'run.started');
    const expected = {
      run: started?.run, mode: 'loop', machine: 'loop', status: 'finished', state: 'done',
      exitCode: 0, reason: 'done', iteration: 2, maxIterations: 3, agentCalls: 2, interruptions: 0, lastStop: null,
    };
    const status = await runYoke(ws, ['status', '--json']);
    expect(status.exitCode, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ ...expected, running: false, pid: null, tornTail: false });
    expect(status.stdout.trim().split('\n')).toHaveLength(1);

    const runs = await runYoke(ws, ['runs', '--json']);
    expect(runs.exitCode, runs.stderr).toBe(0);
    const list = JSON.parse(runs.stdout) as unknown[];
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject(expected);
  }, TIMEOUT);
});

describe('unfinished runs', () => {
  it('`yoke status` on an interrupted run says it was interrupted and that `yoke run` resumes it', async () => {
    const { ws, env } = await setup({ default: { hang: true } });
    const yoke = startYoke(ws, ['run'], { env });
    expect(await waitUntil(async () => (await agentCalls(env.FAKE_AGENT_LOG)).length === 1, 15_000)).toBe(true);
    const [call] = await agentCalls(env.FAKE_AGENT_LOG);
    if (call) leftoverPids.push(...markProcesses(call.pid));
    yoke.kill('SIGINT');
    expect((await yoke).exitCode).toBe(130);

    const text = await runYoke(ws, ['status']);
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/stopped +interrupted by SIGINT at \S+; `yoke run` resumes it/);

    const json = await runYoke(ws, ['status', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'unfinished', lastStop: 'interrupted by SIGINT', running: false, exitCode: null, iteration: 1 });
  }, TIMEOUT);

  it('--fresh journals run.abandoned for the unfinished run and starts a new run id', async () => {
    const { ws, env } = await setup({ default: { notes: 'DONE' } });
    const old = await crashEarly(ws, env);
    const before = (await readJournal(ws)).length;

    const fresh = await runYoke(ws, ['run', '--fresh'], { env });

    expect(fresh.exitCode, fresh.stderr).toBe(0);
    expect(fresh.stderr).toContain(`abandoned unfinished run ${old} (--fresh)`);
    expect(fresh.stderr).not.toMatch(/resuming/);
    const added = (await readJournal(ws)).slice(before);
    const abandoned = added.findIndex((r) => r.type === 'run.abandoned');
    const started = added.findIndex((r) => r.type === 'run.started');
    expect(added[abandoned]).toMatchObject({ run: old, payload: { reason: 'yoke run --fresh' } });
    expect(started).toBeGreaterThan(abandoned);
    const newRun = added[started]?.run;
    expect(newRun).not.toBe(old);
    expect(added.filter((r) => r.type === 'run.resumed')).toEqual([]);

    const runs = JSON.parse((await runYoke(ws, ['runs', '--json'])).stdout) as Array<{ run: string; status: string }>;
    expect(runs.map((r) => [r.run, r.status])).toEqual([[old, 'abandoned'], [newRun, 'finished']]);
  }, TIMEOUT);

  it('--fresh stops an agent the abandoned run left running, so two agents never work at once', async () => {
    const { ws, env } = await setup({ default: { spawnGrandchild: true, hang: true } });
    // crash right after the agent's process.spawned is durable: the agent outlives yoke
    const crashed = await runYoke(ws, ['run', '--quiet'], { env: { ...env, YOKE_FAILPOINT: 'crash-after:9' } });
    expect(crashed.signal, crashed.stderr).toBe('SIGKILL');
    expect((await readJournal(ws)).at(-1)?.type).toBe('process.spawned');
    expect(await waitUntil(async () => (await grandchildPids(env.FAKE_AGENT_LOG)).length === 1, 5_000)).toBe(true);
    const [orphan] = await agentCalls(env.FAKE_AGENT_LOG);
    const [grandchild] = await grandchildPids(env.FAKE_AGENT_LOG);
    if (orphan === undefined || grandchild === undefined) throw new Error('unreachable');
    leftoverPids.push(...markProcesses(orphan.pid, grandchild));
    expect(isAlive(orphan.pid)).toBe(true);

    const freshEnv = await writeScript(ws, { default: { notes: 'DONE' } }, 'fresh-script');
    const fresh = await runYoke(ws, ['run', '--fresh', '--quiet'], { env: freshEnv });

    expect(fresh.exitCode, fresh.stderr).toBe(0);
    expect(isAlive(orphan.pid), 'the abandoned run’s agent is still running').toBe(false);
    expect(isAlive(grandchild)).toBe(false);
  }, TIMEOUT);

  it('--json also prints the journal.repaired record of a torn tail it repairs', async () => {
    const { ws, env } = await setup({ default: { notes: 'DONE' } });
    await crashEarly(ws, env);
    const journal = journalPath(ws.path);
    appendTornLine(journal, journalLines(journal).length);
    const before = journalLines(journal).length - 1;

    const resumed = await runYoke(ws, ['run', '--json'], { env });

    expect(resumed.exitCode, resumed.stderr).toBe(0);
    const added = (await readJournal(ws)).slice(before);
    expect(added[0]?.type).toBe('journal.repaired');
    expect(ndjson(resumed.stdout).map((r) => [r.seq, r.type])).toEqual(added.map((r) => [r.seq, r.type]));
  }, TIMEOUT);

  it('after --fresh abandons a run recorded by another machine version, `yoke runs` still lists every run', async () => {
    const { ws, env } = await setup({ default: { notes: 'DONE' } });
    const old = await crashEarly(ws, env);
    // as if an older yoke (loop machine v0) had written it
    rewriteJournal(journalPath(ws.path), (record) => {
      record.mv = 0;
    });
    expectRefusal(await runYoke(ws, ['run', '--quiet'], { env }), 3, /recorded with loop machine v0 .*`yoke run --fresh`/);
    const fresh = await runYoke(ws, ['run', '--fresh', '--quiet'], { env });
    expect(fresh.exitCode, fresh.stderr).toBe(0);

    const runs = await runYoke(ws, ['runs', '--json']);

    expect(runs.exitCode, runs.stderr).toBe(0);
    const list = JSON.parse(runs.stdout) as Array<{ run: string; status: string }>;
    expect(list.map((r) => r.run)[0]).toBe(old);
    expect(list.map((r) => r.status)).toEqual(['abandoned', 'finished']);
  }, TIMEOUT);

  it('--max-iterations N on an unfinished run journals SET_MAX_ITERATIONS and the run obeys it', async () => {
    // capped at 1 by the conf: without the raise the run would end (exit 1) after iteration 1
    const { ws, env } = await setup({ steps: { '1': { notes: 'IN_PROGRESS' } }, default: { notes: 'DONE' } }, [...confHead(1), 'commit off']);
    const run = await crashEarly(ws, env);
    const before = (await readJournal(ws)).length;

    const resumed = await runYoke(ws, ['run', '--max-iterations', '3', '--json'], { env });

    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/resuming run/);
    const records = await readJournal(ws);
    const added = records.slice(before);
    expect(ndjson(resumed.stdout)).toEqual(added);
    const raises = added.filter((r) => r.type === 'event' && (r.payload as { event: { type: string } }).event.type === 'SET_MAX_ITERATIONS');
    expect(raises).toHaveLength(1);
    expect(raises[0]).toMatchObject({ run, payload: { cause: null, event: { type: 'SET_MAX_ITERATIONS', max: 3 } } });
    expect(added.findIndex((r) => r === raises[0])).toBeGreaterThan(added.findIndex((r) => r.type === 'run.resumed'));
    expect((await agentCalls(env.FAKE_AGENT_LOG)).map((c) => c.iteration)).toEqual([1, 2]);
    expect(JSON.parse((await runYoke(ws, ['status', '--json'])).stdout)).toMatchObject({ run, status: 'finished', iteration: 2, maxIterations: 3 });
  }, TIMEOUT);
});

describe('--max-iterations on a new run', () => {
  it('caps the run (exit 1) and journals the cap in run.started', async () => {
    const { ws, env } = await setup({ default: { notes: 'IN_PROGRESS' } });

    const result = await runYoke(ws, ['run', '--max-iterations', '1', '--quiet'], { env });

    expect(result.exitCode, result.stderr).toBe(1);
    expect((await agentCalls(env.FAKE_AGENT_LOG)).length).toBe(1);
    const records = await readJournal(ws);
    const started = records.find((r) => r.type === 'run.started');
    expect((started?.payload as { input: { config: { maxIterations: number } } }).input.config.maxIterations).toBe(1);
    expect(records.at(-1)).toMatchObject({ type: 'run.finished', payload: { exitCode: 1, reason: 'max-iterations' } });
  }, TIMEOUT);
});

/** The subcommands a `--help` text lists under `Commands:` (without commander's own `help`). */
function listedCommands(help: string): string[] {
  const section = help.split(/^Commands:$/m)[1] ?? '';
  return [...section.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((match) => match[1] ?? '').filter((name) => name !== 'help');
}

describe('arguments', () => {
  it('every command’s --help exits 0 and prints its usage', async () => {
    const { ws } = await setup({});
    const before = await snapshotTree(ws.path);
    // walk the command tree the way a user would: from each --help to the commands it lists
    const seen: string[] = [];
    const queue: string[][] = [[]];
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      const result = await runYoke(ws, [...path, '--help']);
      expect(result.exitCode, `${path.join(' ')} --help: ${result.stderr}`).toBe(0);
      expect(result.stdout).toContain(`Usage: ${['yoke', ...path].join(' ')}`);
      seen.push(path.join(' '));
      for (const name of listedCommands(result.stdout)) queue.push([...path, name]);
    }
    expect(seen).toEqual(expect.arrayContaining(['', 'init', 'run', 'status', 'runs', 'config', 'config check', 'check', 'demo', 'protect', 'protect status', 'protect refresh']));
    expect(await snapshotTree(ws.path)).toEqual(before);
  }, TIMEOUT * 3); // one yoke process per command (about 20 now), on a loaded machine

  it('an unknown flag, an unknown command or a bad flag value exits 2 without touching the workspace', async () => {
    const { ws, env } = await setup({ default: { notes: 'DONE' } });
    const before = await snapshotTree(ws.path);

    const cases: Array<[string[], RegExp]> = [
      [['run', '--bogus'], /^yoke: unknown option '--bogus'/],
      [['status', '--bogus'], /^yoke: unknown option '--bogus'/],
      [['frobnicate'], /^yoke: unknown command 'frobnicate'/],
      [['run', '--max-iterations', '0'], /^yoke: option '--max-iterations <n>' argument '0' is invalid/],
    ];
    const results = await Promise.all(cases.map(async ([args]) => runYoke(ws, args, { env })));

    results.forEach((result, index) => {
      const [args, pattern] = cases[index] ?? [[], /$^/];
      expect(result.exitCode, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toMatch(pattern);
      expect(stackLines(result.stderr)).toEqual([]);
      expect(result.stdout).toBe('');
    });
    expect(await snapshotTree(ws.path)).toEqual(before);
    expect((await agentCalls(env.FAKE_AGENT_LOG)).length).toBe(0);
  }, TIMEOUT);

  it('YOKE_DEBUG=1 adds a stack trace to an error; without it the error is one line', async () => {
    const { ws } = await setup({});
    // a folder where the journal file should be: an environment fault (issue 20 item 4), exit 3
    await mkdir(journalPath(ws.path), { recursive: true });

    const plain = await runYoke(ws, ['status']);
    expectRefusal(plain, 3, /^yoke: .*journal\.jsonl is a directory where yoke needs a file/);

    const debug = await runYoke(ws, ['status'], { env: { YOKE_DEBUG: '1' } });
    expect(debug.exitCode).toBe(3);
    expect(debug.stderr).toMatch(/is a directory where yoke needs a file/);
    expect(stackLines(debug.stderr).length).toBeGreaterThan(0);
  }, TIMEOUT);
});
