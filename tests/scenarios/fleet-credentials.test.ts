// DESIGN §14: a token in the git URL given to `yoke queue add` is never stored, printed or journaled.
// A real PostgreSQL, a real `yoke worker` and a real git remote over HTTP that refuses anyone without
// the token: the job's URL is kept without it, the worker clones and pushes with its own git
// credentials (a credential helper in its HOME), and the token appears in nothing the user sees:
// queue add's output, `yoke fleet` (text and --json), the worker's log lines, the job log, the
// journal, the clone's .git/config (which the agent can read), the job rows.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitHttpServer, type GitHttpServer } from '../support/git-http-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres-database.js';
import { waitUntil } from '../support/process-liveness.js';
import { makeWorkspace, runYoke, yokeBin, type Workspace } from '../support/workspace.js';

const USER = 'yoke-bot';
const TOKEN = `tok${randomBytes(12).toString('hex')}`;
const AGENT = `#!/bin/sh
cat >/dev/null
echo "$YOKE_ITERATION" >> work.txt
printf 'STATUS: DONE\\nfinished\\n' > .loop/notes.md
`;

let database: TestDatabase;
let scratch: string;
let server: GitHttpServer;
let ws: Workspace | undefined;
let worker: ResultPromise | null = null;

beforeAll(async () => {
  database = await createTestDatabase('fleet_credentials');
  scratch = mkdtempSync(join(tmpdir(), 'yoke-fleet-cred-'));
  const init = await runYoke({ path: scratch }, ['store', 'init'], { env: { YOKE_STORE: database.url } });
  expect(init.exitCode, init.stderr).toBe(0);
  mkdirSync(join(scratch, 'repos'));
  server = await startGitHttpServer(join(scratch, 'repos'), USER, TOKEN);
});
afterAll(async () => {
  if (worker?.pid !== undefined) {
    try {
      process.kill(-worker.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    await worker;
  }
  await server.close();
  await ws?.cleanup();
  rmSync(scratch, { recursive: true, force: true });
  await database.drop();
});

async function sql<T extends pg.QueryResultRow>(text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

/** Every file under `dir` (recursively), read as text. */
function allText(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'latin1'))
    .join('\n');
}

describe('a token in a queued git URL (DESIGN §14)', () => {
  it('is not stored, printed or journaled; the worker clones and pushes with its own credentials', async () => {
    ws = await makeWorkspace(({ sideDir }) => ({
      '.loop/yoke.conf': `mode loop\nagent cmd sh ${sideDir}/agent.sh\nmax-iterations 2\nguard ok true\ncommit each\n`,
      '.loop/plan.md': '# Plan\nwrite work.txt\n',
      '.loop/protocol.md': '# Protocol\none step\n',
      '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
      '.loop/.gitignore': '.journal/\n.stash/\n',
    }));
    writeFileSync(ws.side('agent.sh'), AGENT);
    chmodSync(ws.side('agent.sh'), 0o755);
    const remote = join(scratch, 'repos', 'shop.git');
    execFileSync('git', ['clone', '--quiet', '--bare', ws.path, remote]);
    const plain = server.url('shop.git');
    const withToken = plain.replace('http://', `http://${USER}:${TOKEN}@`);
    const env = { YOKE_STORE: database.url };

    // what queue add says and stores: the URL without the token, and a note saying so
    const added = await runYoke({ path: scratch }, ['queue', 'add', withToken, '--name', 'shop'], { env });
    expect(added.exitCode, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^queued job \S+ for workspace shop$/);
    expect(added.stderr).toContain(`the user name and password in the URL were not stored; workers clone ${plain} with their own git credentials`);
    const again = await runYoke({ path: scratch }, ['queue', 'add', withToken, '--name', 'shop', '--json'], { env });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ queued: false, workspace: 'shop', repository: plain, credentialsRemoved: true });
    for (const text of [added.stdout, added.stderr, again.stdout, again.stderr]) expect(text).not.toContain(TOKEN);
    const stored = await sql<{ repository: string; data: string }>("SELECT j.repository, b.data::text AS data FROM yoke_job j JOIN pgboss.job b ON b.id::text = j.job");
    expect(stored).toHaveLength(1);
    expect(stored[0]?.repository).toBe(plain);
    expect(stored[0]?.data).not.toContain(TOKEN);

    // the worker has the token in its own git credential store, as an operator would set it up
    const home = join(scratch, 'worker-home');
    mkdirSync(home);
    writeFileSync(join(home, '.git-credentials'), `${withToken.replace(/\/shop\.git$/, '')}\n`);
    writeFileSync(join(home, '.gitconfig'), `[credential]\n\thelper = store --file=${join(home, '.git-credentials')}\n`);
    const workdir = join(scratch, 'workdir');
    worker = execa(process.execPath, [yokeBin, 'worker', '--workdir', workdir], {
      cwd: scratch,
      env: {
        PATH: process.env.PATH ?? '', HOME: home, NO_COLOR: '1',
        YOKE_STORE: database.url, YOKE_WORKER_TTL_MS: '3000', YOKE_LEASE_TTL_MS: '3000', YOKE_WORKER_POLL_MS: '300',
        GIT_AUTHOR_NAME: 'Yoke Worker', GIT_AUTHOR_EMAIL: 'worker@example.invalid', GIT_COMMITTER_NAME: 'Yoke Worker', GIT_COMMITTER_EMAIL: 'worker@example.invalid',
      },
      extendEnv: false, detached: true, reject: false, stdin: 'ignore', all: true,
    });
    const done = await waitUntil(async () => (await sql("SELECT 1 FROM pgboss.job WHERE name = 'yoke-jobs' AND state = 'completed'")).length === 1, 240_000, 500);
    const fleet = await runYoke({ path: scratch }, ['fleet'], { env });
    expect(done, fleet.stdout).toBe(true);
    const fleetJson = await runYoke({ path: scratch }, ['fleet', '--json'], { env });
    expect(fleet.exitCode, fleet.stderr).toBe(0);
    expect(fleetJson.exitCode, fleetJson.stderr).toBe(0);
    const view = JSON.parse(fleetJson.stdout) as { runs: Array<{ run: string; status: string; exitCode: number | null }> };
    expect(view.runs).toMatchObject([{ status: 'finished', exitCode: 0 }]);
    const run = view.runs[0]?.run ?? '';

    // the token worked, from the worker's own credentials: the server refused nothing it needed, and the run's commits are on its ref
    expect(server.requests.some((request) => request.authorized)).toBe(true);
    expect(execFileSync('git', ['show', `refs/yoke/runs/${run}:work.txt`], { cwd: remote, encoding: 'utf8' })).toBe('1\n');

    const replay = await runYoke({ path: scratch }, ['replay', '--json', '--workspace', 'shop'], { env });
    expect(replay.exitCode, replay.stderr).toBe(0);
    const journal = (await sql<{ text: string }>("SELECT text FROM yoke_journal WHERE workspace = 'shop' ORDER BY seq")).map((row) => row.text).join('\n');
    expect(journal).toContain('run.finished');
    const clone = join(workdir, 'shop');
    expect(readFileSync(join(clone, '.git', 'config'), 'utf8')).toContain(`url = ${plain}`);
    process.kill(-(worker.pid ?? 0), 'SIGTERM');
    const stopped = await worker;
    expect(stopped.exitCode, String(stopped.all)).toBe(0);
    const seen: Record<string, string> = {
      'yoke fleet': fleet.stdout + fleet.stderr,
      'yoke fleet --json': fleetJson.stdout + fleetJson.stderr,
      'the worker\'s output': String(stopped.all),
      'the job logs': allText(join(workdir, 'logs')),
      'the journal (yoke replay --json)': replay.stdout + replay.stderr,
      'the journal (yoke_journal)': journal,
      'the clone (.git and work tree, .loop/.journal included)': allText(clone),
      'pg-boss\'s jobs': JSON.stringify(await sql('SELECT * FROM pgboss.job')),
      'yoke_job': JSON.stringify(await sql('SELECT * FROM yoke_job')),
    };
    for (const [where, text] of Object.entries(seen)) expect(text.includes(TOKEN), `${where} holds the token`).toBe(false);
  }, 300_000);
});
