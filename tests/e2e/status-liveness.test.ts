// `yoke status` tells a live run from a silent, stuck or dead one (issue 7): real yoke processes,
// the scripted fake agent, kill -9 and SIGSTOP; the heartbeat is a hint and never breaks status.
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { agentCalls, type FakeScript } from '../support/fake-agent-script.js';
import { readJournal } from '../support/journal-records.js';
import { confHead } from '../support/loop-conf.js';
import { makeLoopWorkspace } from '../support/loop-workspace.js';
import { isAlive, markProcesses, waitUntil } from '../support/process-liveness.js';
import { cleanupAfterEach } from '../support/e2e-cleanup.js';
import { runYoke, startYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 45_000;
const { workspaces, leftoverPids } = cleanupAfterEach();

async function setup(script: FakeScript, conf: string[] = [...confHead(3), 'commit off']) {
  const made = await makeLoopWorkspace({ conf, script });
  workspaces.push(made.ws);
  return made;
}

interface StatusJson {
  run: string;
  status: string;
  liveness: string;
  running: boolean;
  pid: number | null;
  yokePid: number | null;
  phase: string | null;
  agent: { role: string; pid: number | null; alive: boolean; silentMs: number; idleTimeoutMs: number } | null;
}

async function statusJson(ws: Workspace): Promise<StatusJson> {
  const result = await runYoke(ws, ['status', '--json']);
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as StatusJson;
}

/** Start `yoke run` and wait until its agent is journaled and running; returns yoke and the agent's pid. */
async function startWithAgent(ws: Workspace, env: Record<string, string>) {
  const yoke = startYoke(ws, ['run'], { env, timeoutMs: 40_000 });
  const started = await waitUntil(
    async () => (await readJournal(ws)).some((r) => r.type === 'process.spawned') && (await agentCalls(env.FAKE_AGENT_LOG ?? '')).length === 1,
    20_000,
  );
  expect(started, 'the agent started').toBe(true);
  const [call] = await agentCalls(env.FAKE_AGENT_LOG ?? '');
  // the journaled agent pid is its process group leader (the `sh -c` running the agent command)
  const spawned = (await readJournal(ws)).find((r) => r.type === 'process.spawned')?.payload as { pid: number } | undefined;
  if (!call || !spawned || yoke.pid === undefined) throw new Error('no agent or no yoke pid');
  leftoverPids.push(...markProcesses(call.pid, spawned.pid, yoke.pid));
  return { yoke, yokePid: yoke.pid, agentPid: spawned.pid };
}

describe('yoke status while a run works', () => {
  it('says running with the phase and the agent; after kill -9 of yoke it says dead, never running, and names the orphaned agent', async () => {
    const { ws, env } = await setup({ default: [{ stdout: 'working\n' }, { hang: true }] });
    const { yoke, yokePid, agentPid } = await startWithAgent(ws, env);

    expect(await waitUntil(async () => (await statusJson(ws)).agent?.pid === agentPid, 10_000)).toBe(true);
    const live = await statusJson(ws);
    expect(live).toMatchObject({ status: 'unfinished', liveness: 'running', running: true, pid: yokePid, yokePid, phase: 'worker agent' });
    expect(live.agent).toMatchObject({ role: 'worker', pid: agentPid, alive: true, idleTimeoutMs: 20 * 60_000 });
    const text = await runYoke(ws, ['status']);
    expect(text.stdout).toMatch(new RegExp(`running +yoke pid ${yokePid}, worker agent pid ${agentPid} (talking|silent for \\d+s) \\(idle timeout 20 min\\)`));
    expect(text.stdout).toMatch(/state +working \(worker agent\)/);

    process.kill(yokePid, 'SIGKILL');
    await yoke;
    expect(isAlive(agentPid), 'the agent outlives a kill -9 of yoke').toBe(true);

    const dead = await statusJson(ws);
    expect(dead).toMatchObject({ status: 'unfinished', liveness: 'dead', running: false, pid: null, yokePid });
    expect(dead.agent).toMatchObject({ pid: agentPid, alive: true });
    const deadText = await runYoke(ws, ['status']);
    expect(deadText.stdout).toMatch(new RegExp(`DEAD +the yoke driving it \\(pid ${yokePid}\\) is gone without a trace \\(crash or kill -9\\); its worker agent \\(pid ${agentPid}\\) is still running`));
    expect(deadText.stdout).not.toMatch(/running +yoke/);

    // once the orphan is gone too, still dead (yoke never finished it), and the agent is not alive
    process.kill(-agentPid, 'SIGKILL');
    expect(await waitUntil(() => !isAlive(agentPid), 5000)).toBe(true);
    expect((await statusJson(ws)).agent).toMatchObject({ alive: false });
    expect((await statusJson(ws)).liveness).toBe('dead');
  }, TIMEOUT);

  it('says possibly stuck once the agent has been silent past the idle timeout (yoke frozen with SIGSTOP cannot stop it)', async () => {
    const { ws, env } = await setup({ default: { hang: true } }, [...confHead(3), 'commit off', 'idle-timeout 5s']);
    const { yoke, yokePid, agentPid } = await startWithAgent(ws, env);
    process.kill(yokePid, 'SIGSTOP');

    expect(await waitUntil(async () => (await statusJson(ws)).liveness === 'possibly-stuck', 20_000)).toBe(true);
    const stuck = await statusJson(ws);
    expect(stuck).toMatchObject({ running: true, yokePid, agent: { pid: agentPid, alive: true, idleTimeoutMs: 5000 } });
    expect(stuck.agent?.silentMs).toBeGreaterThan(5000);
    expect((await runYoke(ws, ['status'])).stdout).toMatch(/STUCK\? +yoke pid \d+, worker agent pid \d+ silent for \d+s \(idle timeout 5s\); yoke should have stopped it/);

    // thawed, yoke stops the silent agent itself (idle timeout) and goes on
    process.kill(yokePid, 'SIGCONT');
    expect(await waitUntil(() => !isAlive(agentPid), 15_000)).toBe(true);
    yoke.kill('SIGINT');
    await yoke;
  }, TIMEOUT);

  it('a garbled or missing heartbeat never breaks status: it falls back to the lock and still says running', async () => {
    const { ws, env } = await setup({ default: { hang: true } });
    const { yoke, yokePid } = await startWithAgent(ws, env);
    const heartbeat = ws.abs('.loop/.journal/heartbeat.json');
    expect(await waitUntil(() => existsSync(heartbeat), 5000)).toBe(true);

    await writeFile(heartbeat, '{"v":1,"run":');
    expect(await statusJson(ws)).toMatchObject({ liveness: 'running', running: true, pid: yokePid, agent: null });
    await rm(heartbeat);
    expect(await statusJson(ws)).toMatchObject({ liveness: 'running', running: true, pid: yokePid, agent: null });

    yoke.kill('SIGINT');
    expect((await yoke).exitCode).toBe(130);
    expect(existsSync(heartbeat), 'a yoke that stops removes its heartbeat').toBe(false);
    expect(await statusJson(ws)).toMatchObject({ liveness: 'stopped', running: false, agent: null });
  }, TIMEOUT);
});

describe('yoke status --watch', () => {
  it('without a terminal repeats the report every second until Ctrl-C, then exits 0; with --json one object per line', async () => {
    const { ws, env } = await setup({ default: { notes: 'DONE' } });
    expect((await runYoke(ws, ['run', '--quiet'], { env })).exitCode).toBe(0);

    const watch = startYoke(ws, ['status', '--watch']);
    const json = startYoke(ws, ['status', '--watch', '--json']);
    let seen = { text: '', json: '' };
    watch.stdout?.on('data', (chunk: Buffer) => void (seen = { ...seen, text: seen.text + chunk.toString() }));
    json.stdout?.on('data', (chunk: Buffer) => void (seen = { ...seen, json: seen.json + chunk.toString() }));
    const refreshed = await waitUntil(() => (seen.text.match(/^run /gm)?.length ?? 0) >= 2 && seen.json.split('\n').length >= 3, 20_000);
    expect(refreshed, 'both refreshed at least once').toBe(true);
    watch.kill('SIGINT');
    json.kill('SIGINT');
    const [text, lines] = await Promise.all([watch, json]);

    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stdout.match(/^run \S+ \(loop, machine loop v1\)$/gm)?.length).toBeGreaterThanOrEqual(2);
    expect(text.stdout).toMatch(/finished +\S+: success \(exit 0\)/);
    expect(lines.exitCode, lines.stderr).toBe(0);
    const objects = lines.stdout.trim().split('\n').map((line) => JSON.parse(line) as StatusJson);
    expect(objects.length).toBeGreaterThanOrEqual(2);
    for (const object of objects) expect(object).toMatchObject({ status: 'finished', liveness: 'finished', running: false });
  }, TIMEOUT);
});
