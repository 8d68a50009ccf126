// DESIGN §14, runs moving between real `yoke worker` processes on a real PostgreSQL:
// - one worker with --concurrency 4 runs four workspaces at once (`yoke fleet` shows it, column by
//   column), then is stopped with SIGTERM mid agent calls: each run journals run.interrupted and its
//   job goes back to the queue;
// - a stories run (queued --mode stories --ref work) whose S1 passed resumes on another worker from
//   refs/yoke/runs/<run>, S1's commit kept; that worker is then frozen (its machine gone quiet) until
//   declared dead: a third worker takes the run over and finishes it, and the frozen one, woken up,
//   loses at the fence (nothing written), and exits 3;
// - a loop run with `commit each` resumes elsewhere and finishes; one under `commit done` that did
//   work goes to the dead-letter queue at once, saying why;
// - a parallel stories run pushes only what landed (never a lane's candidate) to its ref, and with a
//   lane in progress it cannot move: dead-lettered at once, saying why;
// - the worker that clones a workspace again keeps the earlier checkout's transcripts.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/postgres-database.js';
import { killQuietly, markProcesses, type ProcessMark, waitUntil } from '../support/process-liveness.js';
import { makeWorkspace, runYoke, yokeBin, type Workspace } from '../support/workspace.js';

/** Loops: iteration 2 sleeps while `$SIDE/slow` exists (removed by the call that sleeps). */
const LOOP_AGENT = `#!/bin/sh
cat >/dev/null
echo "$YOKE_CALL $YOKE_ITERATION" >> "$SIDE/agent-calls.log"
if [ "$YOKE_ITERATION" = 2 ] && [ -f "$SIDE/slow" ]; then
  rm -f "$SIDE/slow"
  sleep 120 &
  echo "$$ $!" > "$SIDE/slow-pids"
  wait
fi
case "$YOKE_ITERATION" in
  1) echo one > work.txt; printf 'STATUS: IN_PROGRESS\\nstarted\\n' > .loop/notes.md ;;
  2) grep -qx two work.txt || echo two >> work.txt; printf 'STATUS: IN_PROGRESS\\nmore\\n' > .loop/notes.md ;;
  *) printf 'STATUS: DONE\\nfinished\\n' > .loop/notes.md ;;
esac
`;

/** Stories: each call works the story its prompt names; S2 sleeps while a `$SIDE/slow-N` marker is left (one per call). */
const STORIES_AGENT = `#!/bin/sh
story=$(grep -o '^### [A-Za-z0-9_-]*:' | head -1 | sed 's/^### //; s/:$//')
echo "$YOKE_CALL $story" >> "$SIDE/agent-calls.log"
if [ "$story" = S2 ]; then
  for n in 1 2; do
    if [ -f "$SIDE/slow-$n" ]; then
      rm -f "$SIDE/slow-$n"
      sleep 120 &
      echo "$$ $!" > "$SIDE/slow-pids-$n"
      wait
    fi
  done
fi
echo "work for $story" > "out-$story.txt"
printf 'STATUS: DONE\\nDecision: wrote out-%s.txt\\n' "$story" > .loop/notes.md
`;

const PRD = `stories:
  - id: S1
    title: First
    acceptance:
      - text: out file exists
        check: test -f out-S1.txt
  - id: S2
    title: Second
    depends-on: [S1]
    acceptance:
      - text: second
        check: test -f out-S2.txt
`;

const PARALLEL_PRD = `stories:
  - id: S1
    title: First
    acceptance:
      - text: out file exists
        check: test -f out-S1.txt
  - id: S2
    title: Second
    acceptance:
      - text: second
        check: test -f out-S2.txt
`;

const GIT_IDENTITY = { GIT_AUTHOR_NAME: 'Yoke Worker', GIT_AUTHOR_EMAIL: 'worker@example.invalid', GIT_COMMITTER_NAME: 'Yoke Worker', GIT_COMMITTER_EMAIL: 'worker@example.invalid' };

let database: TestDatabase;
let scratch: string;
const workspaces: Workspace[] = [];
const workers: ResultPromise[] = [];
const leftover: ProcessMark[] = [];

beforeAll(async () => {
  database = await createTestDatabase('fleet_moves');
  scratch = mkdtempSync(join(tmpdir(), 'yoke-fleet-moves-'));
  const init = await runYoke({ path: scratch }, ['store', 'init'], { env: { YOKE_STORE: database.url } });
  expect(init.exitCode, init.stderr).toBe(0);
});
afterAll(async () => {
  for (const worker of workers) {
    try {
      if (worker.pid !== undefined) {
        process.kill(-worker.pid, 'SIGCONT');
        process.kill(-worker.pid, 'SIGKILL');
      }
    } catch {
      // already gone
    }
  }
  await Promise.allSettled(workers);
  killQuietly(leftover.splice(0));
  for (const ws of workspaces.splice(0)) await ws.cleanup();
  rmSync(scratch, { recursive: true, force: true });
  await database.drop();
});

async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** A project pushed to a bare remote under scratch/<name>.git. */
async function project(name: string, files: (side: string) => Record<string, string>, agent: string): Promise<{ ws: Workspace; remote: string }> {
  const ws = await makeWorkspace(({ sideDir }) => ({ ...files(sideDir), '.loop/.gitignore': '.journal/\n.stash/\n' }));
  writeFileSync(ws.side('agent.sh'), agent);
  chmodSync(ws.side('agent.sh'), 0o755);
  workspaces.push(ws);
  const remote = join(scratch, `${name}.git`);
  execFileSync('git', ['clone', '--quiet', '--bare', ws.path, remote]);
  return { ws, remote };
}

function loopFiles(commit: string) {
  return (side: string): Record<string, string> => ({
    '.loop/yoke.conf': ['mode loop', `agent cmd SIDE=${side} sh ${side}/agent.sh`, 'max-iterations 5', 'guard check test -s work.txt', commit, ''].join('\n'),
    '.loop/plan.md': '# Plan\nwrite work.txt\n',
    '.loop/protocol.md': '# Protocol\none step at a time\n',
    '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
  });
}

/** Start a `yoke worker` in a process group of its own (so a whole "machine" can be frozen or killed at once). */
function startWorker(workdir: string, args: string[] = []): ResultPromise {
  const worker = execa(process.execPath, [yokeBin, 'worker', '--workdir', workdir, ...args], {
    cwd: scratch,
    env: {
      PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? scratch, NO_COLOR: '1',
      // the parallel run's lane worktrees go under the test run's own state home, not the real one
      ...(process.env.XDG_STATE_HOME === undefined ? {} : { XDG_STATE_HOME: process.env.XDG_STATE_HOME }),
      YOKE_STORE: database.url, YOKE_WORKER_TTL_MS: '3000', YOKE_LEASE_TTL_MS: '3000', YOKE_WORKER_POLL_MS: '300',
      ...GIT_IDENTITY,
    },
    extendEnv: false, detached: true, reject: false, stdin: 'ignore', all: true,
  });
  workers.push(worker);
  return worker;
}

function git(dir: string, args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
}

async function pidsOf(file: string): Promise<[number, number]> {
  expect(await waitUntil(() => existsSync(file), 120_000, 200), `${file} appears`).toBe(true);
  const [agent, sleeper] = readFileSync(file, 'utf8').trim().split(' ').map(Number);
  leftover.push(...markProcesses(agent ?? 0, sleeper ?? 0));
  return [agent ?? 0, sleeper ?? 0];
}

interface Row { seq: number; type: string; run: string | null; payload: { key?: string; kind?: string; params?: Record<string, unknown>; result?: Record<string, unknown> | null; signal?: string } }

async function journal(workspace: string): Promise<Row[]> {
  return (await sql<{ record: Row }>('SELECT record FROM yoke_journal WHERE workspace = $1 ORDER BY seq', [workspace])).map((row) => row.record);
}

async function jobOf(workspace: string, queue = 'yoke-jobs'): Promise<{ state: string; output: { reason?: string } | null } | undefined> {
  const [row] = await sql<{ state: string; output: { reason?: string } | null }>('SELECT state::text AS state, output FROM pgboss.job WHERE name = $1 AND COALESCE(singleton_key, data->>\'workspace\') = $2 ORDER BY created_on DESC LIMIT 1', [queue, workspace]);
  return row;
}

describe('runs that move between workers (DESIGN §14)', () => {
  it('SIGTERM hands back four concurrent runs; a stories run resumes from its ref with S1 kept and survives a frozen worker declared dead (which exits 3, writing nothing); a `commit done` run with work and a parallel run with a lane open are dead-lettered, the parallel run\'s ref holding only what landed', async () => {
    const stories = await project('mv-stories', (side) => ({
      '.loop/yoke.conf': `mode stories\nagent cmd SIDE=${side} sh ${side}/agent.sh\n`,
      '.loop/prd.yaml': PRD,
      '.loop/protocol.md': '# Protocol\n',
      '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
    }), STORIES_AGENT);
    // the job's ref: a branch `work` one commit ahead of the default branch
    git(stories.ws.path, ['checkout', '-q', '-b', 'work']);
    writeFileSync(join(stories.ws.path, 'on-work.txt'), 'only on work\n');
    git(stories.ws.path, ['add', 'on-work.txt']);
    git(stories.ws.path, ['commit', '-q', '-m', 'work branch']);
    git(stories.ws.path, ['push', '-q', stories.remote, 'work']);
    const workTip = git(stories.remote, ['rev-parse', 'refs/heads/work']);
    const loop = await project('mv-loop', loopFiles('commit each'), LOOP_AGENT);
    const done = await project('mv-done', loopFiles('commit done'), LOOP_AGENT);
    const par = await project('mv-par', (side) => ({
      '.loop/yoke.conf': `mode stories\nagent cmd SIDE=${side} sh ${side}/agent.sh\nparallel 2\n`,
      '.loop/prd.yaml': PARALLEL_PRD,
      '.loop/protocol.md': '# Protocol\n',
      '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
    }), STORIES_AGENT);
    writeFileSync(par.ws.side('slow-1'), '');
    const branchesBefore = [stories, loop, done, par].map(({ remote }) => git(remote, ['for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads']));
    for (const ws of [loop.ws, done.ws]) writeFileSync(ws.side('slow'), '');
    for (const n of [1, 2]) writeFileSync(stories.ws.side(`slow-${n}`), '');

    const env = { YOKE_STORE: database.url };
    for (const [remote, args] of [[stories.remote, ['--mode', 'stories', '--ref', 'work']], [loop.remote, []], [done.remote, []], [par.remote, []]] as const) {
      const added = await runYoke({ path: scratch }, ['queue', 'add', remote, ...args], { env });
      expect(added.exitCode, added.stderr).toBe(0);
    }

    // one worker, four jobs at once; the parallel run's S1 landed while its S2 works
    const first = join(scratch, 'machine-1');
    const w1 = startWorker(first, ['--concurrency', '4']);
    await pidsOf(stories.ws.side('slow-pids-1'));
    await pidsOf(loop.ws.side('slow-pids'));
    await pidsOf(done.ws.side('slow-pids'));
    await pidsOf(par.ws.side('slow-pids-1'));
    expect(await waitUntil(async () => (await journal('mv-par')).some((r) => r.type === 'effect.completed' && r.payload.kind === 'story.land'), 60_000, 300)).toBe(true);
    const claims = await sql<{ worker: string }>('SELECT worker FROM yoke_job_claim');
    expect(claims).toHaveLength(4);
    const w1Id = claims[0]?.worker ?? '';
    expect(new Set(claims.map((claim) => claim.worker))).toEqual(new Set([w1Id]));
    expect(w1Id.split(':')[1]).toBe(String(w1.pid));

    // `yoke fleet`, column by column
    const shown = await runYoke({ path: scratch }, ['fleet'], { env });
    expect(shown.exitCode, shown.stderr).toBe(0);
    const lines = shown.stdout.split('\n');
    expect(lines[0]).toBe('workers (1)');
    expect(lines[1]).toMatch(new RegExp(`^  ${w1Id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}  running  pid ${w1.pid} on \\S+  heartbeat \\d+\\.\\ds ago  jobs 4/4$`));
    expect(lines[2]).toBe('jobs (4)');
    for (const name of ['mv-stories', 'mv-loop', 'mv-done', 'mv-par']) {
      expect(lines.slice(3, 7).some((line) => new RegExp(`^  [0-9a-f-]{36}  active       ${name}  attempts 1  on ${w1Id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`).test(line)), `${name} in ${shown.stdout}`).toBe(true);
    }
    expect(lines[7]).toBe('runs (4)');
    expect(lines.slice(8, 12).find((line) => line.startsWith('  mv-stories '))).toMatch(/^ {2}mv-stories {2}[0-9A-Z]{26} {2}unfinished {2}\S.* {2}iteration 2\/\S+ {2}\$0\.0000$/);
    expect(lines.slice(8, 12).find((line) => line.startsWith('  mv-loop '))).toMatch(/^ {2}mv-loop {2}[0-9A-Z]{26} {2}unfinished {2}\S.* {2}iteration 2\/5 {2}\$0\.0000$/);

    // SIGTERM: each run journals its interruption, each job goes back to the queue, the worker stops cleanly
    process.kill(w1.pid ?? 0, 'SIGTERM');
    const stopped = await w1;
    expect(stopped.exitCode, String(stopped.all)).toBe(0);
    for (const name of ['mv-stories', 'mv-loop', 'mv-done', 'mv-par']) {
      const records = await journal(name);
      expect(records.filter((r) => r.type === 'run.interrupted').map((r) => r.payload.signal), name).toEqual(['SIGTERM']);
      expect((await jobOf(name))?.state, name).toBe('retry');
    }
    expect((await sql<{ state: string }>('SELECT state FROM yoke_worker WHERE id = $1', [w1Id]))[0]?.state).toBe('stopped');
    const s1Commit = (await journal('mv-stories')).find((r) => r.type === 'effect.completed' && r.payload.kind === 'story.pass')?.payload.result?.sha;
    expect(typeof s1Commit).toBe('string');

    // two more workers; the first restarted on the same machine (the same workdir)
    const w2 = startWorker(first);
    const w3 = startWorker(join(scratch, 'machine-3'));
    // the `commit done` run that did an agent call cannot move: dead-lettered at once, never resumed
    expect(await waitUntil(async () => (await jobOf('mv-done', 'yoke-jobs-dead')) !== undefined, 60_000, 300)).toBe(true);
    expect((await jobOf('mv-done', 'yoke-jobs-dead'))?.output?.reason).toMatch(/^run [0-9A-Z]{26} completed 1 agent call\(s\) under `commit done` and has no commit yet: its work is only in the checkout of the worker that ran it/);
    expect((await journal('mv-done')).filter((r) => r.type === 'run.resumed')).toHaveLength(0);
    // the parallel run: its ref holds S1's landed commit (no lane candidate was pushed there); with S2's lane open it cannot move
    expect(await waitUntil(async () => (await jobOf('mv-par', 'yoke-jobs-dead')) !== undefined, 60_000, 300)).toBe(true);
    expect((await jobOf('mv-par', 'yoke-jobs-dead'))?.output?.reason).toMatch(/^run [0-9A-Z]{26} is a parallel stories run with lanes in progress \(S2\): their worktrees and branches exist only in the clone of the worker that ran them/);
    const parRecords = await journal('mv-par');
    expect(parRecords.filter((r) => r.type === 'run.resumed')).toHaveLength(0);
    const landed = parRecords.find((r) => r.type === 'effect.completed' && r.payload.kind === 'story.land')?.payload.result?.sha;
    const parRef = `refs/yoke/runs/${parRecords.find((r) => r.type === 'run.started')?.run ?? ''}`;
    expect(git(par.remote, ['rev-parse', parRef])).toBe(landed);
    expect(git(par.remote, ['show', `${parRef}:.loop/prd.yaml`]).match(/passes: true/g)).toHaveLength(1);

    // the stories run resumed on one of them (from its ref, S1's commit there) and is in S2 again: freeze that machine
    await pidsOf(stories.ws.side('slow-pids-2'));
    const [holder] = await sql<{ worker: string }>("SELECT worker FROM yoke_job_claim WHERE workspace = 'mv-stories'");
    const frozen = [w2, w3].find((worker) => holder?.worker.split(':')[1] === String(worker.pid));
    const other = frozen === w2 ? w3 : w2;
    expect(frozen, `the claim ${holder?.worker ?? 'none'}`).toBeDefined();
    process.kill(-(frozen?.pid ?? 0), 'SIGSTOP');

    // the other declares it dead, takes the run over and finishes it; the loop run finishes too
    expect(await waitUntil(async () => (await jobOf('mv-stories'))?.state === 'completed' && (await jobOf('mv-loop'))?.state === 'completed', 180_000, 500)).toBe(true);
    const [{ n: rowsBefore } = { n: '0' }] = await sql<{ n: string }>("SELECT count(*) AS n FROM yoke_journal WHERE workspace = 'mv-stories'");
    process.kill(-(frozen?.pid ?? 0), 'SIGCONT');
    const woken = await frozen;
    expect(woken?.exitCode, String(woken?.all)).toBe(3);
    expect(String(woken?.all)).toMatch(/was declared dead by another worker/);
    const [{ n: rowsAfter } = { n: '0' }] = await sql<{ n: string }>("SELECT count(*) AS n FROM yoke_journal WHERE workspace = 'mv-stories'");
    expect(rowsAfter).toBe(rowsBefore);

    // the stories run: S1 committed once and kept, S2 on top, all on refs/yoke/runs/<run>, which grew from `work`
    const records = await journal('mv-stories');
    const run = records.find((r) => r.type === 'run.started')?.run ?? '';
    expect(records.filter((r) => r.type === 'run.resumed')).toHaveLength(2);
    expect(records.filter((r) => r.type === 'run.finished').map((r) => (r.payload as { exitCode?: number }).exitCode)).toEqual([0]);
    const baseline = records.find((r) => r.type === 'effect.completed' && r.payload.kind === 'baseline.capture')?.payload.result as { head?: { branch?: string; sha?: string } };
    expect(baseline.head).toEqual({ branch: 'work', sha: workTip });
    const passed = records.filter((r) => r.type === 'effect.completed' && r.payload.kind === 'story.pass').map((r) => r.payload.result?.sha);
    expect(passed).toHaveLength(2);
    expect(passed[0]).toBe(s1Commit);
    const ref = `refs/yoke/runs/${run}`;
    expect(git(stories.remote, ['rev-parse', ref])).toBe(passed[1]);
    expect(git(stories.remote, ['rev-list', '--reverse', `${workTip}..${ref}`]).split('\n')).toEqual(passed);
    expect(git(stories.remote, ['show', `${ref}:.loop/prd.yaml`]).match(/passes: true/g)).toHaveLength(2);
    for (const file of ['out-S1.txt', 'out-S2.txt', 'on-work.txt']) expect(git(stories.remote, ['cat-file', '-t', `${ref}:${file}`])).toBe('blob');
    // no completed agent call ran again: S1 once; S2 cut short twice, then once to the end
    const calls = (await stories.ws.sideLines('agent-calls.log')).map((line) => line.split(' '));
    const completed = records.filter((r) => r.type === 'effect.completed' && r.payload.kind === 'agent.spawn').map((r) => r.payload.key);
    for (const key of completed) expect(calls.filter(([call]) => call === key)).toHaveLength(1);
    expect(calls.map(([, story]) => story)).toEqual(['S1', 'S2', 'S2', 'S2']);

    const loopRecords = await journal('mv-loop');
    const loopRun = loopRecords.find((r) => r.type === 'run.started')?.run ?? '';
    expect(loopRecords.filter((r) => r.type === 'run.resumed')).toHaveLength(1);
    expect(git(loop.remote, ['show', `refs/yoke/runs/${loopRun}:work.txt`])).toBe('one\ntwo');

    // the workers only ever pushed refs/yoke/runs/…
    for (const [index, { remote }] of [stories, loop, done, par].entries()) {
      expect(git(remote, ['for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads'])).toBe(branchesBefore[index]);
    }
    for (const name of ['mv-stories', 'mv-loop']) {
      const verify = await runYoke({ path: scratch }, ['replay', '--verify', '--workspace', name], { env });
      expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
    }

    // the restarted worker cloned again where the first one ran: the first one's transcripts were moved aside, not deleted
    const firstTranscripts = records.filter((r) => r.type === 'effect.completed' && r.payload.kind === 'agent.spawn' && r.seq < (records.find((x) => x.type === 'run.interrupted')?.seq ?? 0))
      .map((r) => String(r.payload.result?.transcript).split('/').at(-1));
    expect(firstTranscripts).toHaveLength(1);
    const keptStories = readdirSync(join(first, 'kept', 'mv-stories', 'transcripts'));
    expect(keptStories).toEqual(expect.arrayContaining(firstTranscripts));
    expect(keptStories.length).toBeGreaterThanOrEqual(2); // S1's call and S2's cut-short one
    process.kill(other.pid ?? 0, 'SIGTERM');
    expect((await other).exitCode).toBe(0);
  }, 600_000);
});
