// A terminal hangup during an agent call (issue 20, item 2): the built CLI, a real shell agent and
// its child, a real SIGHUP. yoke must stop the agent's group, journal the interruption, exit 129,
// and `yoke run` must resume the same run.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { callLabels, makeJudgedWorkspace } from '../support/judged-workspace.js';
import { readJournal } from '../support/journal-records.js';
import { isAlive, killQuietly, markProcesses, type ProcessMark, waitUntil } from '../support/process-liveness.js';
import { runYoke, startYoke, yokeBin, type Workspace } from '../support/workspace.js';

const TIMEOUT = 90_000;
const workspaces: Workspace[] = [];
const leftovers: ProcessMark[] = [];
const script = ['/usr/bin/script', '/bin/script'].find((path) => existsSync(path)) ?? null;

afterEach(async () => {
  killQuietly(leftovers.splice(0));
  for (const ws of workspaces.splice(0)) await ws.cleanup();
});

describe('issue 20 item 2: SIGHUP during an agent call left the agent unsupervised', () => {
  it('stops the agent and its child, journals run.interrupted SIGHUP, exits 129; `yoke run` resumes the run', async () => {
    const { ws } = await makeJudgedWorkspace({
      mode: 'loop',
      conf: ['max-iterations 3', 'commit off'],
      script: {
        worker: [
          { sh: 'sleep 300 & echo $! > "$SIDE/child"; echo $$ > "$SIDE/agent"; wait' },
          { notes: 'DONE' },
        ],
      },
    });
    workspaces.push(ws);
    const yoke = startYoke(ws, ['run', '--quiet']);
    expect(await waitUntil(async () => ((await ws.sideText('agent')) ?? '').trim() !== '', 30_000), 'the agent started').toBe(true);
    const agent = Number((await ws.sideText('agent'))?.trim());
    const child = Number((await ws.sideText('child'))?.trim());
    leftovers.push(...markProcesses(agent, child));
    expect(isAlive(agent) && isAlive(child)).toBe(true);

    yoke.kill('SIGHUP');
    const hungUp = await yoke;
    expect(hungUp.signal, hungUp.stderr).toBeUndefined();
    expect(hungUp.exitCode, hungUp.stderr).toBe(129);
    // the agent and what it started are gone: nobody works unwatched
    expect(await waitUntil(() => !isAlive(agent) && !isAlive(child), 10_000), 'the agent group was stopped').toBe(true);
    const records = await readJournal(ws);
    const last = records.at(-1);
    expect(last?.type).toBe('run.interrupted');
    expect(last?.payload).toEqual({ signal: 'SIGHUP' });

    const resumed = await runYoke(ws, ['run'], { timeoutMs: 60_000 });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(`${resumed.stdout}\n${resumed.stderr}`).toMatch(/resuming run/);
    const after = await readJournal(ws);
    expect(after.filter((r) => r.type === 'run.started')).toHaveLength(1);
    expect(after.at(-1)?.type).toBe('run.finished');
    expect(await callLabels(ws)).toEqual(['worker#1', 'worker#1']);
  }, TIMEOUT);

  it.skipIf(script === null)('a real terminal hangup (the pty yoke prints to closes): the agent is stopped and the interruption journaled', async () => {
    const { ws } = await makeJudgedWorkspace({
      mode: 'loop',
      conf: ['max-iterations 3', 'commit off'],
      script: {
        // the agent keeps printing, so yoke keeps writing to the terminal after it is gone (EIO)
        worker: [{ sh: 'echo $$ > "$SIDE/agent"; while true; do echo tick; sleep 0.1; done' }, { notes: 'DONE' }],
      },
    });
    workspaces.push(ws);
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith('YOKE_')) env[key] = value;
    // `script` gives yoke a pseudo-terminal as its controlling terminal; killing `script` closes the pty's
    // master side, and the kernel sends SIGHUP to yoke (the agent runs in its own process group, and gets none)
    const terminal = execa(script ?? 'script', ['-qfec', `${process.execPath} ${yokeBin} run`, '/dev/null'], { cwd: ws.path, env: { ...env, NO_COLOR: '1' }, extendEnv: false, reject: false, stdin: 'ignore' });
    expect(await waitUntil(async () => ((await ws.sideText('agent')) ?? '').trim() !== '', 30_000), 'the agent started').toBe(true);
    const agent = Number((await ws.sideText('agent'))?.trim());
    leftovers.push(...markProcesses(agent));
    terminal.kill('SIGKILL');
    await terminal;

    const lock = join(ws.path, '.loop', '.journal', 'lock');
    expect(await waitUntil(async () => (await readJournal(ws)).at(-1)?.type === 'run.interrupted' && !existsSync(lock), 20_000), 'yoke journaled the interruption and let go of the workspace').toBe(true);
    expect((await readJournal(ws)).at(-1)?.payload).toEqual({ signal: 'SIGHUP' });
    expect(await waitUntil(() => !isAlive(agent), 10_000), 'the agent was stopped').toBe(true);

    const resumed = await runYoke(ws, ['run', '--quiet'], { timeoutMs: 60_000 });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect((await readJournal(ws)).at(-1)?.type).toBe('run.finished');
  }, TIMEOUT);
});
