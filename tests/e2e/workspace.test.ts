// DESIGN §5/§6 end to end: when yoke refuses a workspace (exit 3), how it repairs a torn journal,
// one writer per workspace, signals, tamper evidence, and a missing or existing config. Built CLI,
// real git, the scripted fake agent; every refusal must leave the workspace byte for byte as it was.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readJournalFile } from '../../store/journal/file/journal-file.js';
import { expectRefusal } from '../support/cli-expect.js';
import { agentCalls, grandchildPids, type FakeScript } from '../support/fake-agent-script.js';
import { appendTornLine, editRecord, journalLines, rewriteLine } from '../support/journal-edit.js';
import { journalPath, readJournal } from '../support/journal-records.js';
import { confHead, loopConf, loopFiles } from '../support/loop-conf.js';
import { makeLoopWorkspace } from '../support/loop-workspace.js';
import { isAlive, killQuietly, markProcesses, type ProcessMark, waitUntil } from '../support/process-liveness.js';
import { snapshotTree } from '../support/tree-snapshot.js';
import { makeWorkspace, runYoke, startYoke, writeScript, type Workspace } from '../support/workspace.js';

const TIMEOUT = 30_000;
const workspaces: Workspace[] = [];
const tempDirs: string[] = [];
const leftoverPids: ProcessMark[] = [];

afterEach(async () => {
  killQuietly(leftoverPids.splice(0));
  if (process.env.KEEP_E2E === '1') return;
  await Promise.all(workspaces.splice(0).map((ws) => ws.cleanup()));
  await Promise.all(tempDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function setup(script: FakeScript, conf: string[] = [...confHead(3), 'commit off']) {
  const made = await makeLoopWorkspace({ conf, script });
  workspaces.push(made.ws);
  return made;
}

/** A workspace whose journal holds one finished run (one iteration, DONE). */
async function finishedRun() {
  const made = await setup({ default: { notes: 'DONE' } });
  const result = await runYoke(made.ws, ['run', '--quiet'], { env: made.env });
  expect(result.exitCode, result.stderr).toBe(0);
  return { ...made, journal: journalPath(made.ws.path) };
}

/** The project tree, byte for byte (git's own folder included). */
const snapshot = (ws: Workspace) => snapshotTree(ws.path);

describe('a damaged journal refuses the workspace (exit 3) and stays as it is', () => {
  it('a corrupted middle line: `yoke run`, `yoke status` and `yoke runs` exit 3 naming journal.jsonl:<line>', async () => {
    const { ws, env, journal } = await finishedRun();
    expect(journalLines(journal).length).toBeGreaterThan(5);
    rewriteLine(journal, 3, (line) => line.slice(0, 25));
    const before = await snapshot(ws);

    const run = await runYoke(ws, ['run'], { env });
    expectRefusal(run, 3, /journal\.jsonl:3: .*not valid JSON/);
    expect(await snapshot(ws)).toEqual(before);

    expectRefusal(await runYoke(ws, ['status']), 3, /journal\.jsonl:3:/);
    expectRefusal(await runYoke(ws, ['runs', '--json']), 3, /journal\.jsonl:3:/);
    expect(await snapshot(ws)).toEqual(before);
  }, TIMEOUT);

  it('a broken hash chain (an earlier record edited, still valid JSON) exits 3 naming the next line', async () => {
    const { ws, env, journal } = await finishedRun();
    editRecord(journal, 2, (record) => {
      record.ts = '2001-01-01T00:00:00.000Z';
    });
    const before = await snapshot(ws);

    expectRefusal(await runYoke(ws, ['run'], { env }), 3, /journal\.jsonl:3: .*chain is broken/);
    expectRefusal(await runYoke(ws, ['status', '--json']), 3, /journal\.jsonl:3:/);
    expect(await snapshot(ws)).toEqual(before);
  }, TIMEOUT);
});

describe('a torn tail is repaired', () => {
  it('`yoke run` cuts it off with a warning, journals the repair and finishes the run', async () => {
    const { ws, env } = await setup({ default: { notes: 'DONE' } });
    const crashed = await runYoke(ws, ['run', '--quiet'], { env: { ...env, YOKE_FAILPOINT: 'crash-after:3' } });
    expect(crashed.signal, crashed.stderr).toBe('SIGKILL');
    const journal = journalPath(ws.path);
    const intact = journalLines(journal);
    const droppedBytes = appendTornLine(journal, intact.length);
    const tornLine = intact.length + 1;
    // `yoke status` only reads: it reports the torn tail and repairs nothing
    const tornBytes = await readFile(journal);
    const status = await runYoke(ws, ['status', '--json']);
    expect(status.exitCode, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ status: 'unfinished', tornTail: true });
    expect(await readFile(journal)).toEqual(tornBytes);

    const resumed = await runYoke(ws, ['run'], { env });

    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`journal.jsonl:${tornLine}: removed a torn last line (${droppedBytes} bytes)`);
    expect(resumed.stderr).toMatch(/resuming run/);
    const contents = readJournalFile(journal);
    expect(contents.torn).toBeNull();
    expect(journalLines(journal).slice(0, intact.length)).toEqual(intact);
    const repairs = contents.records.filter((r) => r.type === 'journal.repaired');
    // the repair names where the torn bytes started: right after the intact lines
    const offset = Buffer.byteLength(intact.map((line) => `${line}\n`).join(''));
    expect(repairs.map((r) => [r.seq, r.payload])).toEqual([[tornLine, { offset, droppedBytes }]]);
    expect(contents.records.at(-1)?.type).toBe('run.finished');

    // a second run starts cleanly: no warning, no second repair
    const again = await runYoke(ws, ['run', '--quiet'], { env });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/torn/);
    expect(readJournalFile(journal).records.filter((r) => r.type === 'journal.repaired')).toHaveLength(1);
  }, TIMEOUT);
});

describe('one writer per workspace', () => {
  it('a second `yoke run` while one is working exits 3 naming the other pid; the first then stops on SIGINT (130)', async () => {
    const { ws, env } = await setup({ default: { stdout: 'working\n', hang: true } });
    const first = startYoke(ws, ['run'], { env });
    const spawned = await waitUntil(
      async () => (await readJournal(ws)).some((r) => r.type === 'process.spawned') && (await agentCalls(env.FAKE_AGENT_LOG)).length === 1,
      15_000,
    );
    expect(spawned, 'the first yoke journaled its agent, which started').toBe(true);
    const [call] = await agentCalls(env.FAKE_AGENT_LOG);
    if (call === undefined) throw new Error('no agent call logged');
    leftoverPids.push(...markProcesses(call.pid));
    const journalBefore = await readFile(journalPath(ws.path));
    const lockBefore = await readFile(ws.abs('.loop/.journal/lock'), 'utf8');

    const second = await runYoke(ws, ['run'], { env });

    expectRefusal(second, 3, new RegExp(`another yoke \\(yoke run ${first.pid}\\) is working in this workspace`));
    expect(await readFile(journalPath(ws.path))).toEqual(journalBefore);
    expect(await readFile(ws.abs('.loop/.journal/lock'), 'utf8')).toBe(lockBefore);
    expect((await agentCalls(env.FAKE_AGENT_LOG)).length).toBe(1);

    // `yoke status` reads without the lock and names the running yoke
    const status = await runYoke(ws, ['status', '--json']);
    expect(status.exitCode, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ status: 'unfinished', running: true, pid: first.pid });

    first.kill('SIGINT');
    const stopped = await first;
    expect(stopped.exitCode, stopped.stderr).toBe(130);
    expect(await waitUntil(() => !isAlive(call.pid), 1_000)).toBe(true);
    expect(existsSync(ws.abs('.loop/.journal/lock'))).toBe(false);
  }, TIMEOUT);

  it('a lock left by a dead process is taken over, and `yoke run` says so', async () => {
    const { ws, env } = await setup({ default: { notes: 'DONE' } });
    const dead = spawn('true');
    const deadPid = dead.pid ?? 0;
    await new Promise((resolve) => dead.once('exit', resolve));
    await ws.write('.loop/.journal/lock', `${JSON.stringify({ pid: deadPid, startTime: '12345', command: 'yoke run' })}\n`);

    const result = await runYoke(ws, ['run'], { env });

    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain(`took over a stale lock left by pid ${deadPid}`);
    expect(existsSync(ws.abs('.loop/.journal/lock'))).toBe(false);
    expect((await readJournal(ws)).at(-1)?.type).toBe('run.finished');
  }, TIMEOUT);
});

describe('outside a git repository', () => {
  it('`yoke run`, `yoke status` and `yoke init` exit 3 and create nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'yoke-nogit-'));
    tempDirs.push(dir);
    for (const [rel, content] of Object.entries(loopFiles(loopConf(confHead(1))))) await writeFileDeep(join(dir, rel), content);
    const before = await snapshotTree(dir);
    // keep git from finding a repository above the temp folder
    const env = { GIT_CEILING_DIRECTORIES: dirname(dir) };

    expectRefusal(await runYoke({ path: dir }, ['run'], { env }), 3, /is not inside a git repository/);
    expectRefusal(await runYoke({ path: dir }, ['status'], { env }), 3, /is not inside a git repository/);
    expectRefusal(await runYoke({ path: dir }, ['init', 'loop', '--force'], { env }), 3, /is not inside a git repository/);
    expect(await snapshotTree(dir)).toEqual(before);
  }, TIMEOUT);
});

async function writeFileDeep(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
}

describe('signals', () => {
  it('SIGTERM while the agent runs exits 143, stops the agent group, journals it; the next run resumes', async () => {
    const { ws, env } = await setup({ steps: { '1': { stdout: 'working\n', spawnGrandchild: true, hang: true } }, default: { notes: 'DONE' } });
    const log = env.FAKE_AGENT_LOG;
    const yoke = startYoke(ws, ['run'], { env });
    const started = await waitUntil(async () => (await agentCalls(log)).length === 1 && (await grandchildPids(log)).length === 1, 15_000);
    expect(started, 'the agent and its grandchild started').toBe(true);
    const [call] = await agentCalls(log);
    const [grandchild] = await grandchildPids(log);
    if (call === undefined || grandchild === undefined) throw new Error('unreachable');
    leftoverPids.push(...markProcesses(call.pid, grandchild));

    yoke.kill('SIGTERM');
    const stopped = await yoke;

    expect(stopped.exitCode, stopped.stderr).toBe(143);
    expect(await waitUntil(() => !isAlive(call.pid) && !isAlive(grandchild), 1_000)).toBe(true);
    const last = (await readJournal(ws)).at(-1);
    expect(last?.type).toBe('run.interrupted');
    expect(last?.payload).toEqual({ signal: 'SIGTERM' });
    expect(existsSync(ws.abs('.loop/.journal/lock'))).toBe(false);

    const resumeEnv = await writeScript(ws, { default: { notes: 'DONE' } }, 'resume-script');
    const resumed = await runYoke(ws, ['run'], { env: resumeEnv });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/resuming run \S+ at iteration 1/);
    const records = await readJournal(ws);
    expect(records.filter((r) => r.type === 'run.started')).toHaveLength(1);
    expect(records.filter((r) => r.type === 'effect.interrupted')).toHaveLength(1);
    expect(records.at(-1)?.type).toBe('run.finished');
  }, TIMEOUT);
});

describe('tamper evidence: .loop/.journal and .loop/.stash changed during an agent call', () => {
  it('an agent appending to the journal stops the run with exit 3 naming the journal; nothing yoke wrote is lost', async () => {
    const forged = '{"forged":"by the agent"}\n';
    const { ws, env } = await setup({ default: { append: { '.loop/.journal/journal.jsonl': forged }, notes: 'DONE' } });

    const result = await runYoke(ws, ['run', '--quiet'], { env });

    expectRefusal(result, 3, /\.loop\/\.journal\/journal\.jsonl was changed while the agent ran.*nothing yoke wrote is lost/);
    // yoke put its own journal back (an intact chain ending where yoke stopped writing) and kept
    // the agent's version aside
    const journal = journalPath(ws.path);
    const contents = readJournalFile(journal);
    expect(contents.torn).toBeNull();
    // …and then journaled why it stopped (issue 20 item 11): the agent call failed by the tamper check
    expect(contents.records.at(-1)?.type).toBe('effect.failed');
    expect((contents.records.at(-1)?.payload as { message: string }).message).toMatch(/^stopped by the tamper check: .*kept as .*journal\.jsonl\.tampered-\d+/);
    expect(contents.records.at(-2)?.type).toBe('process.spawned');
    const aside = (await readdir(dirname(journal))).filter((name) => name.startsWith('journal.jsonl.tampered-'));
    expect(aside).toHaveLength(1);
    expect((await readFile(join(dirname(journal), aside[0] ?? ''), 'utf8')).endsWith(forged)).toBe(true);

    // put back, the run resumes (the cut-short call is surfaced as interrupted) and finishes
    const resumeEnv = await writeScript(ws, { default: { notes: 'DONE' } }, 'resume-script');
    const resumed = await runYoke(ws, ['run', '--quiet'], { env: resumeEnv });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect((await readJournal(ws)).at(-1)?.type).toBe('run.finished');
  }, TIMEOUT);

  it('an agent writing into .loop/.stash stops the run with exit 3 naming the stash', async () => {
    const { ws, env } = await setup({ default: { write: { '.loop/.stash/planted.txt': 'not from yoke\n' }, notes: 'DONE' } });

    const result = await runYoke(ws, ['run', '--quiet'], { env });

    expectRefusal(result, 3, /\.loop\/\.stash was changed while the agent ran/);
    const contents = readJournalFile(journalPath(ws.path));
    expect(contents.records.some((r) => r.type === 'run.finished')).toBe(false);
    expect(await ws.read('.loop/.stash/planted.txt')).toBe('not from yoke\n');
  }, TIMEOUT);


  it('an agent removing .loop/.journal (as `git clean -fdX` does) stops the run with exit 3, and the run’s records survive', async () => {
    // The refusal says "Nothing yoke wrote is lost"; yoke still holds the journal open, so it can
    // keep that promise even when the file is gone.
    const { ws, env } = await setup({ default: { delete: ['.loop/.journal'], notes: 'DONE' } });

    const result = await runYoke(ws, ['run', '--quiet'], { env });

    expectRefusal(result, 3, /journal\.jsonl was changed while the agent ran.*nothing yoke wrote is lost/);
    const status = await runYoke(ws, ['status', '--json']);
    expect(status.exitCode, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout), 'the run is still on record').toMatchObject({ status: 'unfinished', mode: 'loop' });
  }, TIMEOUT);

  it('an agent deleting yoke’s spec backups in .loop/.journal stops the run with exit 3 naming .loop/.journal', async () => {
    // DESIGN §6: any change to .loop/.journal during an agent call is tamper evidence, not only
    // the journal file. Without the check the run goes on and fails later, at the next spec restore.
    const { ws, env } = await setup({
      steps: { '1': { delete: ['.loop/.journal/blobs'], notes: 'IN_PROGRESS' } },
      default: { notes: 'DONE' },
    });

    const result = await runYoke(ws, ['run', '--quiet'], { env });

    expectRefusal(result, 3, /\.loop\/\.journal\S* was changed while the agent ran/);
    expect((await agentCalls(env.FAKE_AGENT_LOG)).length).toBe(1);

    // The backups are gone for good: the next `yoke run` cannot restore the spec, and says so as a
    // damaged workspace (exit 3) with the way out — not as an effect to retry (exit 1).
    const again = await runYoke(ws, ['run', '--quiet'], { env });
    expectRefusal(again, 3, /blob [0-9a-f]{64} is missing from .*backups of its spec files were removed.*`yoke run --fresh`/);
    expect((await agentCalls(env.FAKE_AGENT_LOG)).length).toBe(1);
    // YOKE_DEBUG=1 shows the original failure under yoke's sentence.
    const debug = await runYoke(ws, ['run', '--quiet'], { env: { ...env, YOKE_DEBUG: '1' } });
    expect(debug.exitCode).toBe(3);
    expect(debug.stderr).toMatch(/caused by: Error: ENOENT/);
    // The shipped CLI is a bundle with source maps: the stack names yoke's own .ts source lines.
    expect(debug.stderr).toMatch(/effects\/fs\/blob-store\.ts:\d+:\d+/);
  }, TIMEOUT);
});

describe('config and init', () => {
  it('a missing .loop/yoke.conf exits 2 suggesting `yoke init`, and creates nothing', async () => {
    const ws = await makeWorkspace({ 'README.md': '# project\n' });
    workspaces.push(ws);
    const before = await snapshot(ws);

    expectRefusal(await runYoke(ws, ['run']), 2, /\.loop\/yoke\.conf does not exist; run `yoke init loop`/);
    expect(await snapshot(ws)).toEqual(before);
    expect(await ws.exists('.loop')).toBe(false);
  }, TIMEOUT);

  it('`yoke init loop` twice: the second exits 2 and changes nothing; --force overwrites', async () => {
    const ws = await makeWorkspace({ 'README.md': '# project\n' });
    workspaces.push(ws);

    const first = await runYoke(ws, ['init', 'loop']);
    expect(first.exitCode, first.stderr).toBe(0);
    const template = await ws.read('.loop/plan.md');
    for (const file of ['yoke.conf', 'protocol.md', 'plan.md', 'notes.md', '.gitignore']) expect(await ws.exists(`.loop/${file}`)).toBe(true);
    await ws.write('.loop/plan.md', '# My plan\n');
    await ws.write('.loop/.gitignore', '# edited\n');
    const before = await snapshot(ws);

    const second = await runYoke(ws, ['init', 'loop']);
    const line = expectRefusal(second, 2, /already exist; nothing was written/);
    expect(line).toContain('--force');
    expect(await snapshot(ws)).toEqual(before);

    const forced = await runYoke(ws, ['init', 'loop', '--force']);
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect(await ws.read('.loop/plan.md')).toBe(template);
    expect(await ws.read('.loop/.gitignore')).toMatch(/\.journal\//);
  }, TIMEOUT);
});
