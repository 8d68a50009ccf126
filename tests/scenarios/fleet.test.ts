// DESIGN §14, the fleet: three real `yoke worker` processes on a real PostgreSQL, four workspaces
// queued from bare git remotes, a scripted agent. One worker (with its `yoke run`) is SIGKILLed mid
// agent call, as if its machine were lost: it stops beating, another worker takes its job, fetches
// refs/yoke/runs/<run>, checks it against the journal and resumes exactly where the journal stops.
// All four runs finish, no iteration is committed twice, no completed effect runs again, every
// journal passes `replay --verify`, and the moved run's commits are all on its ref. A repository
// that cannot be cloned goes to the dead-letter queue with the reason. A workspace whose journal was
// edited in the table is shown by `yoke fleet` as unreadable, with the refusal, and the rest as before;
// a job queued for it is dead-lettered on its second attempt, the refusal unchanged.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/postgres-database.js';
import { killQuietly, markProcesses, type ProcessMark, waitUntil } from '../support/process-liveness.js';
import { makeWorkspace, runYoke, yokeBin, type Workspace } from '../support/workspace.js';

const AGENT = `#!/bin/sh
cat >/dev/null
echo "$YOKE_CALL $YOKE_ITERATION $$" >> "$SIDE/agent-calls.log"
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

const NAMES = ['fleet-a', 'fleet-b', 'fleet-c', 'fleet-d'];
const GIT_IDENTITY = { GIT_AUTHOR_NAME: 'Yoke Worker', GIT_AUTHOR_EMAIL: 'worker@example.invalid', GIT_COMMITTER_NAME: 'Yoke Worker', GIT_COMMITTER_EMAIL: 'worker@example.invalid' };

let database: TestDatabase;
let scratch: string;
const workspaces: Workspace[] = [];
const workers: ResultPromise[] = [];
const leftover: ProcessMark[] = [];

beforeAll(async () => {
  database = await createTestDatabase('fleet');
  scratch = mkdtempSync(join(tmpdir(), 'yoke-fleet-'));
  const init = await runYoke({ path: scratch }, ['store', 'init'], { env: { YOKE_STORE: database.url } });
  expect(init.exitCode, init.stderr).toBe(0);
});
afterAll(async () => {
  for (const worker of workers) {
    try {
      if (worker.pid !== undefined) process.kill(-worker.pid, 'SIGKILL'); // the worker's process group: it and its yoke run
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

/** A project with the scripted agent, pushed to a bare remote; returns the workspace and the remote's path. */
async function project(name: string): Promise<{ ws: Workspace; remote: string }> {
  const ws = await makeWorkspace(({ sideDir }) => ({
    '.loop/yoke.conf': [
      'mode loop',
      `agent cmd SIDE=${sideDir} sh ${sideDir}/agent.sh`,
      'max-iterations 5',
      `guard check sh -c 'echo "$YOKE_RUN $YOKE_ITERATION" >> ${sideDir}/guard-calls.log; test -s work.txt'`,
      'commit each',
      '',
    ].join('\n'),
    '.loop/plan.md': `# Plan\nwrite work.txt for ${name}\n`,
    '.loop/protocol.md': '# Protocol\none step at a time\n',
    '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
    '.loop/.gitignore': '.journal/\n.stash/\n',
  }));
  writeFileSync(ws.side('agent.sh'), AGENT);
  chmodSync(ws.side('agent.sh'), 0o755);
  workspaces.push(ws);
  const remote = join(scratch, `${name}.git`);
  execFileSync('git', ['clone', '--quiet', '--bare', ws.path, remote]);
  return { ws, remote };
}

/**
 * Start a `yoke worker` in a process group of its own (so the whole "machine" can be killed at once).
 * Its global git configuration points core.hooksPath elsewhere (as husky users' often does): the
 * push after each commit must happen all the same, or the moved run could not resume.
 */
function startWorker(index: number): void {
  const gitconfig = join(scratch, 'worker-gitconfig');
  writeFileSync(gitconfig, `[core]\n\thooksPath = ${join(scratch, 'no-such-hooks')}\n`);
  const worker = execa(process.execPath, [yokeBin, 'worker', '--workdir', join(scratch, `worker-${index}`)], {
    cwd: scratch,
    env: {
      PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? scratch, NO_COLOR: '1',
      YOKE_STORE: database.url, YOKE_WORKER_TTL_MS: '3000', YOKE_LEASE_TTL_MS: '3000', YOKE_WORKER_POLL_MS: '500',
      GIT_CONFIG_GLOBAL: gitconfig, ...GIT_IDENTITY,
    },
    extendEnv: false,
    detached: true,
    reject: false,
    stdin: 'ignore',
    all: true,
  });
  workers.push(worker);
}

function git(dir: string, args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
}

interface Row { type: string; run: string | null; payload: { key?: string; kind?: string; result?: { sha?: string | null } } }

describe('the fleet (DESIGN §14, issue 19)', () => {
  it('three workers, four workspaces, one worker killed mid agent call: every run finishes once, verified, its commits on refs/yoke/runs/<run>', async () => {
    const projects = await Promise.all(NAMES.map((name) => project(name)));
    const [moved] = projects;
    if (!moved) throw new Error('no project');
    writeFileSync(moved.ws.side('slow'), '');
    const branchesBefore = projects.map(({ remote }) => git(remote, ['for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads']));

    for (let index = 0; index < 3; index += 1) startWorker(index);
    for (const [index, { remote }] of projects.entries()) {
      const added = await runYoke({ path: scratch }, ['queue', 'add', remote, '--name', NAMES[index] ?? '', '--json'], { env: { YOKE_STORE: database.url } });
      expect(added.exitCode, added.stderr).toBe(0);
      expect(JSON.parse(added.stdout)).toMatchObject({ queued: true, workspace: NAMES[index] });
    }
    // a repository that cannot be cloned: the dead-letter queue says why
    const bad = await runYoke({ path: scratch }, ['queue', 'add', join(scratch, 'no-such-repo.git'), '--name', 'fleet-bad'], { env: { YOKE_STORE: database.url } });
    expect(bad.exitCode, bad.stderr).toBe(0);
    // a job queued for a mode its workspace is not in is not run: the dead-letter queue says why
    const wrongMode = await project('fleet-mode');
    const mismatched = await runYoke({ path: scratch }, ['queue', 'add', wrongMode.remote, '--name', 'fleet-mode', '--mode', 'goal'], { env: { YOKE_STORE: database.url } });
    expect(mismatched.exitCode, mismatched.stderr).toBe(0);

    // the moved workspace's agent is in its slow call: kill its worker's whole process group (a lost machine)
    expect(await waitUntil(() => existsSync(moved.ws.side('slow-pids')), 240_000, 250)).toBe(true);
    const [agentPid, sleepPid] = readFileSync(moved.ws.side('slow-pids'), 'utf8').trim().split(' ').map(Number);
    leftover.push(...markProcesses(agentPid ?? 0, sleepPid ?? 0));
    const [claim] = await sql<{ worker: string }>("SELECT worker FROM yoke_job_claim WHERE workspace = 'fleet-a'");
    const victim = workers.find((worker) => claim !== undefined && claim.worker.split(':')[1] === String(worker.pid));
    expect(victim, `the claim ${claim?.worker ?? 'none'} names a worker this test started`).toBeDefined();
    process.kill(-(victim?.pid ?? 0), 'SIGKILL');
    await victim;

    // every job finishes: four completed, the unclonable one in the dead-letter queue with its reason
    const finished = await waitUntil(async () => (await sql("SELECT 1 FROM pgboss.job WHERE name = 'yoke-jobs' AND state = 'completed'")).length === 4
      && (await sql("SELECT 1 FROM pgboss.job WHERE name = 'yoke-jobs-dead'")).length === 2, 480_000, 1000);
    const fleet = await runYoke({ path: scratch }, ['fleet', '--json'], { env: { YOKE_STORE: database.url } });
    expect(finished, fleet.stdout).toBe(true);
    expect(fleet.exitCode, fleet.stderr).toBe(0);
    const view = JSON.parse(fleet.stdout) as {
      workers: Array<{ pid: number; state: string }>;
      jobs: Array<{ queue: string; workspace: string; state: string; attempts: number; output: { reason?: string } | null }>;
      runs: Array<{ workspace: string; run: string; status: string; exitCode: number | null; iteration: number | null }>;
    };
    expect(view.workers.find((worker) => worker.pid === victim?.pid)?.state).toBe('dead');
    expect(view.workers.filter((worker) => worker.state === 'running')).toHaveLength(2);
    expect(view.runs.map((run) => [run.workspace, run.status, run.exitCode]).sort()).toEqual(NAMES.map((name) => [name, 'finished', 0]));
    const dead = view.jobs.filter((job) => job.queue === 'dead-letter');
    expect(dead.map((job) => job.workspace).sort()).toEqual(['fleet-bad', 'fleet-mode']);
    expect(dead.find((job) => job.workspace === 'fleet-bad')?.output?.reason).toMatch(/^the repository cannot be cloned: /);
    expect(dead.find((job) => job.workspace === 'fleet-mode')?.output?.reason).toMatch(/^the job was queued for goal mode, but \.loop\/yoke\.conf of the default branch is in loop mode; /);
    expect(await sql("SELECT 1 FROM yoke_journal WHERE workspace = 'fleet-mode'")).toEqual([]);
    expect(view.jobs.find((job) => job.queue === 'jobs' && job.workspace === 'fleet-a')?.attempts).toBe(2);

    for (const [index, { ws, remote }] of projects.entries()) {
      const name = NAMES[index] ?? '';
      const records = (await sql<{ record: Row }>('SELECT record FROM yoke_journal WHERE workspace = $1 ORDER BY seq', [name])).map((row) => row.record);
      const run = view.runs.find((r) => r.workspace === name)?.run ?? '';
      // no completed effect ran again: each completed agent call ran once, each guard once
      const completed = records.filter((r) => r.type === 'effect.completed' && r.payload.kind === 'agent.spawn').map((r) => r.payload.key);
      expect(completed).toHaveLength(3);
      const calls = (await ws.sideLines('agent-calls.log')).map((line) => line.split(' ')[0]);
      for (const key of completed) expect(calls.filter((call) => call === key)).toHaveLength(1);
      expect(calls).toHaveLength(ws === moved.ws ? 4 : 3); // the killed call of iteration 2, run again under a new key
      const guards = await ws.sideLines('guard-calls.log');
      expect(new Set(guards).size).toBe(guards.length);
      expect(records.filter((r) => r.type === 'run.resumed')).toHaveLength(ws === moved.ws ? 1 : 0);
      // each iteration committed once, every journaled commit on refs/yoke/runs/<run> of the remote
      const shas = records.filter((r) => r.type === 'effect.completed' && r.payload.kind === 'commit.create').map((r) => r.payload.result?.sha).filter((sha): sha is string => typeof sha === 'string');
      expect(shas.length).toBeGreaterThanOrEqual(2);
      const onRef = git(remote, ['log', '--format=%H %(trailers:key=Yoke-Effect,valueonly,separator=)', `refs/yoke/runs/${run}`]).split('\n');
      const effects = onRef.map((line) => line.split(' ')[1]).filter((key) => key !== undefined && key !== '');
      expect(new Set(effects).size).toBe(effects.length);
      for (const sha of shas) expect(onRef.some((line) => line.startsWith(sha))).toBe(true);
      expect(git(remote, ['show', `refs/yoke/runs/${run}:work.txt`])).toBe('one\ntwo');
      // only yoke's own ref was pushed: the user's branches did not move
      expect(git(remote, ['for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads'])).toBe(branchesBefore[index]);

      const verify = await runYoke({ path: scratch }, ['replay', '--verify', '--workspace', name], { env: { YOKE_STORE: database.url } });
      expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
    }

    // one damaged workspace: `yoke fleet` names it with the refusal and still shows everything else (its cached rows are not trusted after the edit)
    await sql("UPDATE yoke_journal SET text = replace(text, '\"type\"', '\"type\" ') WHERE workspace = 'fleet-d' AND seq = 3");
    const damaged = await runYoke({ path: scratch }, ['fleet', '--json'], { env: { YOKE_STORE: database.url } });
    expect(damaged.exitCode, damaged.stderr).toBe(0);
    const after = JSON.parse(damaged.stdout) as { runs: Array<{ workspace: string }>; unreadable: Array<{ workspace: string; reason: string }> };
    expect(after.unreadable).toHaveLength(1);
    expect(after.unreadable[0]).toMatchObject({ workspace: 'fleet-d' });
    expect(after.unreadable[0]?.reason).toMatch(/^postgres:\/\/127\.0\.0\.1:\d+\/\S+ workspace fleet-d record 4: the journal is corrupt or was edited: its prev hash does not match/);
    expect(after.runs.map((run) => run.workspace).sort()).toEqual(['fleet-a', 'fleet-b', 'fleet-c']);
    const text = await runYoke({ path: scratch }, ['fleet'], { env: { YOKE_STORE: database.url } });
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/\nunreadable workspaces \(1\)\n {2}fleet-d {2}postgres:\/\/127\.0\.0\.1:\d+\/\S+ workspace fleet-d record 4: /);

    // a job for it meets the same refusal on its second attempt, with no progress: dead-lettered then, not after ten attempts
    const requeued = await runYoke({ path: scratch }, ['queue', 'add', projects[3]?.remote ?? '', '--name', 'fleet-d', '--json'], { env: { YOKE_STORE: database.url } });
    expect(JSON.parse(requeued.stdout)).toMatchObject({ queued: true });
    const deadLettered = await waitUntil(async () => (await sql("SELECT 1 FROM pgboss.job WHERE name = 'yoke-jobs-dead' AND data->>'workspace' = 'fleet-d'")).length === 1, 60_000, 300);
    expect(deadLettered).toBe(true);
    const [gaveUp] = await sql<{ retry_count: number; output: { reason: string } }>("SELECT retry_count, output FROM pgboss.job WHERE name = 'yoke-jobs' AND singleton_key = 'fleet-d' AND state = 'failed'");
    expect(gaveUp?.retry_count).toBe(1);
    expect(gaveUp?.output.reason).toMatch(/workspace fleet-d record 4: the journal is corrupt or was edited: .* \(the same refusal as the attempt before, with no progress in between: it would not change\)$/);
  }, 900_000);
});
