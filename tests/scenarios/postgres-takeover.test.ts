// DESIGN §14, the lease on the shared store: a `yoke run` killed (-9) mid agent call stops beating;
// while its lease is live nobody else may write; once it lapsed, the next `yoke run` takes it over and
// resumes exactly where the journal stops: no completed agent call or guard runs twice, each
// iteration is committed once, and the journal verifies.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/postgres-database.js';
import { isAlive, killQuietly, markProcesses, type ProcessMark, waitUntil } from '../support/process-liveness.js';
import { makeWorkspace, runYoke, startYoke, type Workspace } from '../support/workspace.js';

const AGENT = `#!/bin/sh
cat >/dev/null
echo "$YOKE_CALL $YOKE_ITERATION $$" >> "$SIDE/agent-calls.log"
if [ "$YOKE_ITERATION" = 2 ] && [ -f "$SIDE/slow" ]; then
  rm -f "$SIDE/slow"
  sleep 60 &
  echo "$$ $!" > "$SIDE/slow-pids"
  wait
fi
case "$YOKE_ITERATION" in
  1) echo one > work.txt; printf 'STATUS: IN_PROGRESS\\nstarted\\n' > .loop/notes.md ;;
  2) grep -qx two work.txt || echo two >> work.txt; printf 'STATUS: IN_PROGRESS\\nmore\\n' > .loop/notes.md ;;
  *) printf 'STATUS: DONE\\nfinished\\n' > .loop/notes.md ;;
esac
`;

let database: TestDatabase;
const workspaces: Workspace[] = [];
const leftover: ProcessMark[] = [];

beforeAll(async () => {
  database = await createTestDatabase('takeover');
  const init = await runYoke({ path: process.cwd() }, ['store', 'init'], { env: { YOKE_STORE: database.url } });
  expect(init.exitCode, init.stderr).toBe(0);
});
afterAll(async () => {
  killQuietly(leftover.splice(0));
  for (const ws of workspaces.splice(0)) await ws.cleanup();
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

async function workspace(): Promise<Workspace> {
  const ws = await makeWorkspace(({ sideDir }) => ({
    '.loop/yoke.conf': [
      'mode loop',
      `agent cmd SIDE=${sideDir} sh ${sideDir}/agent.sh`,
      'max-iterations 5',
      `guard check sh -c 'echo "$YOKE_RUN $YOKE_ITERATION" >> ${sideDir}/guard-calls.log; test -s work.txt'`,
      'commit each',
      '',
    ].join('\n'),
    '.loop/plan.md': '# Plan\nwrite work.txt\n',
    '.loop/protocol.md': '# Protocol\none step at a time\n',
    '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
    '.loop/.gitignore': '.journal/\n.stash/\n',
  }));
  writeFileSync(ws.side('agent.sh'), AGENT);
  chmodSync(ws.side('agent.sh'), 0o755);
  workspaces.push(ws);
  return ws;
}

interface Row { type: string; payload: { key?: string; kind?: string } }

describe('the shared store\'s lease (DESIGN §14)', () => {
  it('a killed yoke run stops beating; after its lease lapsed the next one takes over and resumes exactly', async () => {
    const ws = await workspace();
    writeFileSync(ws.side('slow'), '');
    const env = { YOKE_STORE: database.url, YOKE_WORKSPACE: 'moved', YOKE_LEASE_TTL_MS: '1500' };
    const first = startYoke(ws, ['run', '--quiet'], { env, timeoutMs: 120_000 });
    expect(await waitUntil(() => existsSync(ws.side('slow-pids')), 60_000, 100)).toBe(true);
    const [agentPid, sleepPid] = readFileSync(ws.side('slow-pids'), 'utf8').trim().split(' ').map(Number);
    leftover.push(...markProcesses(agentPid ?? 0, sleepPid ?? 0));
    // the lease is live and beating while the agent works: a second writer is refused, nothing started
    const live = await sql<{ pid: number; command: string }>("SELECT pid, command FROM yoke_lease WHERE workspace = 'moved' AND expires_at > now()");
    expect(live).toEqual([{ pid: first.pid, command: 'yoke run' }]);
    const refused = await runYoke(ws, ['run', '--quiet'], { env });
    expect(refused.exitCode, refused.stderr).toBe(3);
    expect(refused.stderr).toMatch(new RegExp(`another yoke \\(yoke run ${first.pid} on `));

    first.kill('SIGKILL');
    await first;
    expect(await waitUntil(async () => (await sql("SELECT 1 FROM yoke_lease WHERE workspace = 'moved' AND expires_at > now()")).length === 0, 30_000, 100)).toBe(true);

    const resumed = await runYoke(ws, ['run', '--quiet'], { env, timeoutMs: 90_000 });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(sleepPid !== undefined && isAlive(sleepPid)).toBe(false); // the orphaned agent was stopped first

    const records = (await sql<{ record: Row }>("SELECT record FROM yoke_journal WHERE workspace = 'moved' ORDER BY seq")).map((row) => row.record);
    expect(records.filter((r) => r.type === 'run.resumed')).toHaveLength(1);
    // no completed effect ran again: every completed agent call ran once, every guard once
    const completed = records.filter((r) => r.type === 'effect.completed' && r.payload.kind === 'agent.spawn').map((r) => r.payload.key);
    expect(completed).toHaveLength(3);
    const calls = (await ws.sideLines('agent-calls.log')).map((line) => line.split(' ')[0]);
    for (const key of completed) expect(calls.filter((call) => call === key)).toHaveLength(1);
    expect(calls).toHaveLength(4); // the killed call of iteration 2, re-run under a new key
    const guards = await ws.sideLines('guard-calls.log');
    expect(new Set(guards).size).toBe(guards.length);
    expect(guards).toHaveLength(3);
    // each iteration committed once
    const subjects = (await ws.gitLog()).map((entry) => entry.subject);
    expect(new Set(subjects).size).toBe(subjects.length);
    expect(await ws.read('work.txt')).toBe('one\ntwo\n');

    const verify = await runYoke(ws, ['replay', '--verify'], { env });
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
    expect(existsSync(join(ws.path, '.loop/.journal/journal.jsonl'))).toBe(false);
  }, 240_000);

  it('two yokes forced onto one workspace: the one whose lease lapsed stops and writes nothing (no rescue over the new holder records), nothing interleaves', async () => {
    const ws = await workspace();
    writeFileSync(ws.side('slow'), '');
    const env = { YOKE_STORE: database.url, YOKE_WORKSPACE: 'forced', YOKE_LEASE_TTL_MS: '1500' };
    const first = startYoke(ws, ['run', '--quiet'], { env, timeoutMs: 150_000 });
    expect(await waitUntil(() => existsSync(ws.side('slow-pids')), 60_000, 100)).toBe(true);
    const [agentPid, sleepPid] = readFileSync(ws.side('slow-pids'), 'utf8').trim().split(' ').map(Number);
    leftover.push(...markProcesses(agentPid ?? 0, sleepPid ?? 0));
    // freeze the first yoke (no heartbeat) until its lease lapses: the second takes over and finishes
    process.kill(first.pid ?? 0, 'SIGSTOP');
    expect(await waitUntil(async () => (await sql("SELECT 1 FROM yoke_lease WHERE workspace = 'forced' AND expires_at > now()")).length === 0, 30_000, 100)).toBe(true);
    const second = await runYoke(ws, ['run', '--quiet'], { env, timeoutMs: 90_000 });
    expect(second.exitCode, second.stderr).toBe(0);
    const [{ n: before } = { n: '0' }] = await sql<{ n: string }>("SELECT count(*) AS n FROM yoke_journal WHERE workspace = 'forced'");
    // the first wakes up: its agent was stopped by the second; it must not write a record more
    process.kill(first.pid ?? 0, 'SIGCONT');
    const loser = await first;
    expect(loser.exitCode, loser.stderr).toBe(3);
    expect(loser.stderr).toMatch(/the lease lapsed and may have been taken over|the journal moved under this yoke/);
    const records = (await sql<{ record: Row & { seq: number; run: string } }>("SELECT record FROM yoke_journal WHERE workspace = 'forced' ORDER BY seq")).map((row) => row.record);
    expect(String(records.length)).toBe(before);
    expect(records.at(-1)?.type).toBe('run.finished');
    expect(await sql("SELECT 1 FROM yoke_journal_kept WHERE workspace = 'forced'")).toEqual([]);
    const verify = await runYoke(ws, ['replay', '--verify'], { env });
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
  }, 240_000);
});
