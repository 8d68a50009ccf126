// A terminal hangup during an agent call (issue 20, item 2): the built CLI, a real shell agent and
// its child, a real SIGHUP. yoke must stop the agent's group, journal the interruption, exit 129,
// and `yoke run` must resume the same run.
import { afterEach, describe, expect, it } from 'vitest';
import { callLabels, makeJudgedWorkspace } from '../support/judged-workspace.js';
import { readJournal } from '../support/journal-records.js';
import { isAlive, killQuietly, waitUntil } from '../support/process-liveness.js';
import { runYoke, startYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 90_000;
const workspaces: Workspace[] = [];
const leftovers: number[] = [];
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
    leftovers.push(agent, child);
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
});
