// DESIGN §14 on one machine: `yoke store init`, the refusals (exit 3, one sentence, nothing started),
// a real `yoke run` of a loop (the scripted agent) journaled in PostgreSQL, and every read command
// against the shared store by workspace name, from a folder outside the project. A store at schema
// version 1 is refused until `yoke store init` migrates it, its journal kept. A project's `store`
// directive picks the store without YOKE_STORE, for `yoke run` and for `--workspace`, and the
// journaled config names it only as postgres://host:port/db. A run that paused on a held tool call
// (the real Claude Code against the mock model server) is answered from a folder outside any
// project: `yoke holds`, `yoke answer` and `yoke budget` with `--workspace`; a stash a crash
// interrupted in a checkout is settled there, never through `--workspace`.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentCliBinary, agentCliPins, installedAgentCli, offlineAgentEnv, type OfflineAgentEnv } from '../support/agent-clis.js';
import { agentCalls } from '../support/fake-agent-script.js';
import { confHead } from '../support/loop-conf.js';
import { makeLoopWorkspace } from '../support/loop-workspace.js';
import type { MockScript } from '../support/mock-model-server/mock-script.js';
import { runOffline, type OfflineRunResult } from '../support/mock-model-server/run-offline.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres-database.js';
import { freePort } from '../support/postgres-cluster.js';
import { makeWorkspace, runYoke, yokeBin, type Workspace } from '../support/workspace.js';

const TIMEOUT = 90_000;
let database: TestDatabase;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  database = await createTestDatabase('e2e_store');
});
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  await database.drop();
});

async function query<T extends pg.QueryResultRow>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

async function loop(extraConf: string[] = []): Promise<{ ws: Workspace; env: Record<string, string> }> {
  const made = await makeLoopWorkspace({
    conf: [...confHead(5), ...extraConf],
    script: { steps: { '1': { write: { 'a.txt': 'one\n' }, notes: 'IN_PROGRESS' }, '2': { write: { 'b.txt': 'two\n' }, notes: 'IN_PROGRESS' } }, default: { notes: 'DONE' } },
  });
  cleanups.push(() => made.ws.cleanup());
  return made;
}

function elsewhere(): { path: string } {
  const path = mkdtempSync(join(tmpdir(), 'yoke-elsewhere-'));
  cleanups.push(() => rmSync(path, { recursive: true, force: true }));
  return { path };
}

describe('the PostgreSQL store (DESIGN §14)', () => {
  it('refuses a store without the schema, then `yoke store init` creates it (and again finds nothing to do)', async () => {
    const { ws, env } = await loop();
    const before = await runYoke(ws, ['run'], { env: { ...env, YOKE_STORE: database.url, YOKE_WORKSPACE: 'refused' } });
    expect(before.exitCode, before.stderr).toBe(3);
    expect(before.stderr).toMatch(/has no yoke schema yet; run `yoke store init`/);
    expect(before.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(ws.path, '.loop/.journal/journal.jsonl'))).toBe(false);
    expect(await agentCalls(ws.side('agent-calls.jsonl'))).toEqual([]);

    const init = await runYoke(ws, ['store', 'init', '--json'], { env: { YOKE_STORE: database.url } });
    expect(init.exitCode, init.stderr).toBe(0);
    const report = JSON.parse(init.stdout) as { store: string; from: number; to: number };
    expect(report).toMatchObject({ from: 0, to: 2 });
    expect(report.store).not.toContain(new URL(database.url).password);
    const again = await runYoke(ws, ['store', 'init'], { env: { YOKE_STORE: database.url } });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/already at version 2/);
  }, TIMEOUT);

  it('bad credentials, an unreachable server and a newer schema: exit 3, one sentence without the secret, nothing started', async () => {
    const newer = await createTestDatabase('e2e_newer');
    cleanups.push(() => newer.drop());
    await runYoke(elsewhere(), ['store', 'init'], { env: { YOKE_STORE: newer.url } });
    await query(newer.url, 'UPDATE yoke_schema SET version = 99');
    const wrong = new URL(database.url);
    wrong.password = 'wrong-secret-123';
    const unreachable = new URL(database.url);
    unreachable.port = String(await freePort());
    const cases: [string, RegExp][] = [
      [wrong.toString(), /refused the user name or password/],
      [unreachable.toString(), /cannot be reached/],
      [newer.url, /schema version 99, written by a newer yoke/],
    ];
    for (const [url, reason] of cases) {
      const { ws, env } = await loop();
      const result = await runYoke(ws, ['run'], { env: { ...env, YOKE_STORE: url } });
      expect(result.exitCode, result.stderr).toBe(3);
      expect(result.stderr).toMatch(reason);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      for (const secret of ['wrong-secret-123', new URL(database.url).password]) expect(result.stderr + result.stdout).not.toContain(secret);
      expect(existsSync(join(ws.path, '.loop/.journal/journal.jsonl'))).toBe(false);
      expect(await agentCalls(ws.side('agent-calls.jsonl'))).toEqual([]);
    }
  }, TIMEOUT);

  it('a real `yoke run` journals in PostgreSQL; status, runs, usage, replay and replay --verify read it by workspace name from anywhere', async () => {
    const { ws, env } = await loop();
    await runYoke(ws, ['store', 'init'], { env: { YOKE_STORE: database.url } });
    const store = { YOKE_STORE: database.url };
    const run = await runYoke(ws, ['run'], { env: { ...env, ...store, YOKE_WORKSPACE: 'alpha' }, timeoutMs: 60_000 });
    expect(run.exitCode, run.stderr).toBe(0);
    expect((await agentCalls(ws.side('agent-calls.jsonl'))).map((call) => call.iteration)).toEqual([1, 2, 3]);
    // the journal is in the database, not on disk; the lease was given back
    expect(existsSync(join(ws.path, '.loop/.journal/journal.jsonl'))).toBe(false);
    const rows = await query<{ seq: string; text: string; type: string }>(database.url, "SELECT seq, text, record->>'type' AS type FROM yoke_journal WHERE workspace = 'alpha' ORDER BY seq");
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.map((row) => Number(row.seq))).toEqual(rows.map((_, i) => i + 1));
    expect(rows.at(-1)?.type).toBe('run.finished');
    expect(rows.some((row) => row.text.includes(new URL(database.url).password))).toBe(false);
    expect(await query(database.url, "SELECT * FROM yoke_lease WHERE workspace = 'alpha'")).toEqual([]);

    const away = elsewhere();
    const runs = await runYoke(away, ['runs', '--json', '--workspace', 'alpha'], { env: store });
    expect(runs.exitCode, runs.stderr).toBe(0);
    const summaries = JSON.parse(runs.stdout) as { run: string; status: string; iteration: number }[];
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toMatchObject({ status: 'finished', iteration: 3 });
    const runId = summaries[0]?.run ?? '';

    const status = await runYoke(away, ['status', '--json', '--workspace', 'alpha'], { env: store });
    expect(status.exitCode, status.stderr).toBe(0);
    expect(status.stdout).toContain(runId);
    expect(status.stdout).toContain('finished');

    const usage = await runYoke(away, ['usage', '--json', '--workspace', 'alpha'], { env: store });
    expect(usage.exitCode, usage.stderr).toBe(0);
    expect((JSON.parse(usage.stdout) as { total: { calls: number } }).total.calls).toBe(3);

    const replay = await runYoke(away, ['replay', '--json', '--workspace', 'alpha'], { env: store });
    expect(replay.exitCode, replay.stderr).toBe(0);
    expect(replay.stdout).toContain('"kind":"outcome"');

    const verify = await runYoke(away, ['replay', '--verify', '--workspace', 'alpha'], { env: store });
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);

    // an unknown workspace has no runs; --workspace without YOKE_STORE is a usage error, for the operator's commands too
    const none = await runYoke(away, ['runs', '--json', '--workspace', 'nobody'], { env: store });
    expect(JSON.parse(none.stdout)).toEqual([]);
    for (const args of [['runs'], ['holds'], ['answer', '1a2b3c4d', 'pass'], ['budget'], ['budget', '--attempts', '9']]) {
      const unset = await runYoke(away, [...args, '--workspace', 'alpha']);
      expect(unset.exitCode, args.join(' ')).toBe(2);
      expect(unset.stderr).toMatch(/^yoke: --workspace alpha names a workspace of a shared store, but YOKE_STORE is not set and no `store` directive names one here/);
    }
  }, TIMEOUT * 2);

  it('a `yoke stash` killed mid-way in a checkout of a store workspace is not settled through --workspace (exit 3, nothing written), but in that checkout', async () => {
    const { ws } = await loop();
    await runYoke(ws, ['store', 'init'], { env: { YOKE_STORE: database.url } });
    const checkout = { YOKE_STORE: database.url, YOKE_WORKSPACE: 'stashed' };
    const killed = await runYoke(ws, ['stash', '-m', 'half done'], { env: { ...checkout, YOKE_FAILPOINT: 'stash-clear:1', YOKE_LEASE_TTL_MS: '300' } });
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    // its lease lapses, as a killed yoke's does
    while ((await query(database.url, "SELECT 1 FROM yoke_lease WHERE workspace = 'stashed' AND expires_at > now()")).length > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    const count = async () => (await query(database.url, "SELECT seq FROM yoke_journal WHERE workspace = 'stashed'")).length;
    const before = await count();
    const away = elsewhere();
    for (const args of [['budget', '--attempts', '3'], ['answer', '--revoke', '1a2b3c4d-a1']]) {
      const refused = await runYoke(away, [...args, '--workspace', 'stashed'], { env: { YOKE_STORE: database.url } });
      expect(refused.exitCode, args.join(' ')).toBe(3);
      expect(refused.stderr).toMatch(/^yoke: workspace stashed: a `yoke stash` a crash interrupted \(journal record \d+\) must be settled in the checkout that began it, not through --workspace/);
    }
    expect(await count()).toBe(before);
    const settled = await runYoke(ws, ['stash', 'pop'], { env: checkout });
    expect(settled.exitCode, settled.stderr).toBe(0);
    expect(settled.stderr).toMatch(/finished an interrupted `yoke stash`/);
  }, TIMEOUT);

  it('a store at schema version 1 is refused as older until `yoke store init` migrates it to 2, keeping its journal', async () => {
    const old = await createTestDatabase('e2e_v1');
    cleanups.push(() => old.drop());
    const { ws, env } = await loop();
    await runYoke(ws, ['store', 'init'], { env: { YOKE_STORE: old.url } });
    const run = await runYoke(ws, ['run'], { env: { ...env, YOKE_STORE: old.url, YOKE_WORKSPACE: 'kept' }, timeoutMs: 60_000 });
    expect(run.exitCode, run.stderr).toBe(0);
    // what a yoke of schema version 1 left: no fleet tables, no queue
    await query(old.url, 'DROP TABLE yoke_worker, yoke_job, yoke_job_claim; DROP SCHEMA pgboss CASCADE; UPDATE yoke_schema SET version = 1');
    const away = elsewhere();
    const refused = await runYoke(away, ['runs', '--workspace', 'kept'], { env: { YOKE_STORE: old.url } });
    expect(refused.exitCode, refused.stderr).toBe(3);
    expect(refused.stderr).toMatch(/has schema version 1, older than this yoke's 2; run `yoke store init` to migrate it, then try again\.$/m);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    const migrated = await runYoke(away, ['store', 'init', '--json'], { env: { YOKE_STORE: old.url } });
    expect(migrated.exitCode, migrated.stderr).toBe(0);
    expect(JSON.parse(migrated.stdout)).toMatchObject({ from: 1, to: 2 });
    expect(await query(old.url, "SELECT to_regclass('yoke_job_claim') IS NOT NULL AS fleet, to_regclass('pgboss.job') IS NOT NULL AS queue")).toEqual([{ fleet: true, queue: true }]);
    const runs = await runYoke(away, ['runs', '--json', '--workspace', 'kept'], { env: { YOKE_STORE: old.url } });
    expect(runs.exitCode, runs.stderr).toBe(0);
    expect(JSON.parse(runs.stdout)).toMatchObject([{ status: 'finished', iteration: 3 }]);
    const verify = await runYoke(away, ['replay', '--verify', '--workspace', 'kept'], { env: { YOKE_STORE: old.url } });
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
  }, TIMEOUT);

  it('the `store` directive: yoke run and --workspace use it without YOKE_STORE; the journaled config holds postgres://host:port/db only', async () => {
    const url = new URL(database.url);
    const password = decodeURIComponent(url.password);
    const { ws, env } = await loop([`store postgres://${url.username}@${url.host}${url.pathname}`]);
    await runYoke(ws, ['store', 'init'], { env: { YOKE_STORE: database.url } });
    const run = await runYoke(ws, ['run'], { env: { ...env, PGPASSWORD: password, YOKE_WORKSPACE: 'directed' }, timeoutMs: 60_000 });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(existsSync(join(ws.path, '.loop/.journal/journal.jsonl'))).toBe(false);
    const rows = await query<{ text: string; store: string | null }>(database.url, "SELECT text, record->'payload'->'input'->'config'->>'store' AS store FROM yoke_journal WHERE workspace = 'directed' ORDER BY seq");
    expect(rows[0]?.store).toBe(`postgres://${url.host}${url.pathname}`);
    for (const row of rows) {
      expect(row.text).not.toContain(password);
      expect(row.text).not.toContain(`${url.username}@`);
    }
    // --workspace finds the store the same way, inside the project; outside it, without YOKE_STORE, there is none
    const runs = await runYoke(ws, ['runs', '--json', '--workspace', 'directed'], { env: { PGPASSWORD: password } });
    expect(runs.exitCode, runs.stderr).toBe(0);
    expect(JSON.parse(runs.stdout)).toMatchObject([{ status: 'finished' }]);
    const nowhere = await runYoke(elsewhere(), ['runs', '--workspace', 'directed'], { env: { PGPASSWORD: password } });
    expect(nowhere.exitCode).toBe(2);
    expect(nowhere.stderr).toMatch(/YOKE_STORE is not set and no `store` directive names one here/);
  }, TIMEOUT);
});

const claude = installedAgentCli('claude');
if (claude === undefined && !process.env.CI) console.warn(`skipping the operator commands with --workspace: claude ${agentCliPins.claude.version} is not installed at ${agentCliBinary('claude')}; run bash scripts/install-agent-clis.sh.`);

describe.skipIf(claude === undefined && !process.env.CI)('the operator answers a run on the store from any folder (--workspace)', () => {
  const envs: OfflineAgentEnv[] = [];
  afterAll(async () => Promise.all(envs.splice(0).map((env) => env.cleanup())));

  /** `yoke run` with the real Claude Code against the mock model server, journaled in workspace `held` of the store at `url`. */
  async function runClaude(ws: Workspace, url: string, script: MockScript, home: { env?: OfflineAgentEnv }): Promise<OfflineRunResult> {
    const run = await runOffline({
      script,
      timeoutMs: 150_000,
      command: async (baseUrl) => {
        if (home.env === undefined) {
          home.env = await offlineAgentEnv('claude', baseUrl);
          envs.push(home.env);
        }
        const env = { ...home.env.env, ANTHROPIC_BASE_URL: baseUrl, PATH: `${dirname(claude ?? '')}:${home.env.env.PATH ?? ''}`, NO_COLOR: '1', FORCE_COLOR: '0', YOKE_STORE: url, YOKE_WORKSPACE: 'held' };
        return { file: process.execPath, args: [yokeBin, 'run', '--quiet'], env, cwd: ws.path };
      },
    });
    expect(run.timedOut, `yoke timed out; stderr:\n${run.stderr}`).toBe(false);
    return run;
  }

  it('a run paused on a held call: holds, answer and budget --workspace from outside any project journal on the store (the writes refused, exit 3, while another yoke holds the lease; the reads not), and the run goes on', async () => {
    // The run may be confined to a loopback of its own (run-offline.ts): it reaches the server by its unix socket.
    const [socket] = await query<{ unix_socket_directories: string }>(database.url, 'SHOW unix_socket_directories');
    const url = `${database.url}?host=${encodeURIComponent(socket?.unix_socket_directories.split(',')[0]?.trim() ?? '')}`;
    await runYoke(elsewhere(), ['store', 'init'], { env: { YOKE_STORE: url } });
    const ws = await makeWorkspace({
      '.loop/yoke.conf': 'mode loop\nagent claude\nmodel claude-sonnet-4-5\nmax-iterations 1\nguard done test -f .loop/notes.md\n',
      '.loop/plan.md': '# Plan\n\nTidy up.\n',
      '.loop/protocol.md': '# Protocol\n\nDo one step, then write .loop/notes.md.\n',
      '.loop/.gitignore': '.journal/\n.stash/\n',
    });
    cleanups.push(() => ws.cleanup());
    const home: { env?: OfflineAgentEnv } = {};
    const first = await runClaude(ws, url, [{ runCommand: { command: 'curl -s http://127.0.0.1:9/ ; echo curled > curled.txt' } }, { text: 'unused' }], home);
    expect(first.exitCode, first.stderr).toBe(1);
    expect(first.stderr).toMatch(/yoke answer [0-9a-f]{8} pass/);

    const away = elsewhere();
    const store = { YOKE_STORE: url };
    const held = async (args: string[]) => runYoke(away, [...args, '--workspace', 'held'], { env: store });
    const journal = async () => query<{ type: string; event: string | null; id: string | null }>(url, "SELECT record->>'type' AS type, record->'payload'->'event'->>'type' AS event, record->'payload'->>'id' AS id FROM yoke_journal WHERE workspace = 'held' ORDER BY seq");
    const holds = await held(['holds', '--json']);
    expect(holds.exitCode, holds.stderr).toBe(0);
    const [hold] = JSON.parse(holds.stdout) as { id: string; class: string; tool: string }[];
    expect(hold).toMatchObject({ class: 'network', tool: 'Bash' });
    const id = hold?.id ?? '';

    // another yoke (on another machine) holds the workspace's lease: the writes are refused, nothing is written
    await query(url, "INSERT INTO yoke_lease (workspace, holder_id, host, pid, start_time, command, acquired_at, heartbeat_at, expires_at) VALUES ('held', 'other', 'other-host', 4242, NULL, 'yoke run', now(), now(), now() + interval '10 minutes')");
    const before = (await journal()).length;
    for (const args of [['answer', id, 'pass'], ['budget', '--attempts', '9']]) {
      const refused = await held(args);
      expect(refused.exitCode, args.join(' ')).toBe(3);
      expect(refused.stderr).toMatch(/another yoke \(yoke run 4242 on other-host\) is working in this workspace/);
    }
    expect(await journal()).toHaveLength(before);
    // the reads take no lease
    for (const args of [['holds', '--json'], ['budget', '--json']]) expect((await held(args)).exitCode, args.join(' ')).toBe(0);
    await query(url, "DELETE FROM yoke_lease WHERE workspace = 'held'");
    // before the answer, `yoke budget` says what the run still waits on (not "run yoke run")
    const waiting = await held(['budget']);
    expect(waiting.stdout).toContain(`The run is still held on tool call ${id}: answer it (\`yoke answer ${id} pass|refuse\` --workspace held) before it goes on.`);

    const answered = await held(['answer', id, 'pass', '--json']);
    expect(answered.exitCode, answered.stderr).toBe(0);
    expect(JSON.parse(answered.stdout)).toMatchObject({ id, ruling: 'pass', scope: 'call' });
    const raised = await held(['budget', '--attempts', '9']);
    expect(raised.exitCode, raised.stderr).toBe(0);
    expect(raised.stdout).toContain('attempts budget is now 9');
    expect(raised.stdout, 'a run paused by a hold is not held by a budget').not.toContain('held by its');
    expect(raised.stdout).toContain('The run goes on at its next `yoke run` in a checkout of workspace held; a fleet job\'s next attempt, or, once the job is dead-lettered (a second pause in a row), `yoke queue add` again (docs/fleet.md).');
    const shown = await held(['budget', '--json']);
    expect(shown.exitCode, shown.stderr).toBe(0);
    expect((JSON.parse(shown.stdout) as { budgets: { dimension: string; ceiling: number | null }[] }).budgets).toContainEqual(expect.objectContaining({ dimension: 'attempts', ceiling: 9 }));
    expect((await journal()).slice(before).map((record) => record.event ?? `${record.type} ${record.id ?? ''}`)).toEqual([`tool.answered ${id}`, 'BUDGET_RAISED']);
    expect(await query(url, "SELECT * FROM yoke_lease WHERE workspace = 'held'"), 'the lease was given back').toEqual([]);
    expect(JSON.parse((await held(['holds', '--json'])).stdout)).toEqual([]);

    // the run goes on with the answer: the held call runs
    const second = await runClaude(ws, url, [{ writeFile: { path: '.loop/notes.md', content: 'STATUS: DONE\n\nTried.\n' } }, { text: 'done' }], home);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(existsSync(join(ws.path, 'curled.txt')), 'the answered call ran').toBe(true);
    expect((await journal()).at(-1)?.type).toBe('run.finished');
  }, TIMEOUT * 4);
});
