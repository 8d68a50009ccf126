// An agent's `setsid` grandchild does not outlive the call (issue 20, item 14): built CLI, real
// processes; where this machine lets yoke make a cgroup, also after yoke itself was killed -9.
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { openContainment } from '../../effects/process/containment.js';
import { isSameProcess, processStartTime } from '../../effects/process/process-identity.js';
import { makeJudgedWorkspace } from '../support/judged-workspace.js';
import { killQuietly, markProcesses, type ProcessMark, waitUntil } from '../support/process-liveness.js';
import { runYoke, startYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 60_000;
const workspaces: Workspace[] = [];
const leftovers: ProcessMark[] = [];
afterEach(async () => {
  killQuietly(leftovers.splice(0));
  for (const ws of workspaces.splice(0)) await ws.cleanup();
});

const probe = await openContainment('auto', tmpdir());
await probe.stop(0);
const cgroups = probe.kind === 'cgroup';

async function setup(worker: Array<{ sh: string; notes?: 'DONE' | 'IN_PROGRESS' }>): Promise<Workspace> {
  const { ws } = await makeJudgedWorkspace({ mode: 'loop', conf: ['max-iterations 2', 'commit off'], script: { worker } });
  workspaces.push(ws);
  return ws;
}

/** The escaped process the agent wrote to the side folder, once it exists. */
async function escapee(ws: Workspace): Promise<{ pid: number; startTime: string | null }> {
  expect(await waitUntil(async () => ((await ws.sideText('escapee')) ?? '').trim() !== '', 15_000)).toBe(true);
  const pid = Number(((await ws.sideText('escapee')) ?? '').trim());
  leftovers.push(...markProcesses(pid));
  return { pid, startTime: processStartTime(pid) };
}

describe('issue 20.14: a setsid grandchild of the agent outlived the run', () => {
  it('a grandchild that left the agent’s process group is stopped when the agent call ends', async () => {
    // The agent lingers a little, so that even without a cgroup yoke's descendant watch sees it.
    const ws = await setup([{ sh: 'setsid sleep 300 & echo $! > "$SIDE/escapee"; sleep 0.6', notes: 'DONE' }]);
    const result = await runYoke(ws, ['run']);
    expect(result.exitCode, result.stderr).toBe(0);
    const { pid, startTime } = await escapee(ws);
    expect(isSameProcess(pid, startTime), `escaped pid ${pid} is still running`).toBe(false);
  }, TIMEOUT);

  it.skipIf(!cgroups)('after yoke is killed -9 mid-call, the next `yoke run` stops the escaped process its cgroup kept', async () => {
    const ws = await setup([
      { sh: 'setsid sleep 300 & echo $! > "$SIDE/escapee"; sleep 300' },
      { sh: 'true', notes: 'DONE' },
    ]);
    const yoke = startYoke(ws, ['run', '--quiet']);
    const { pid, startTime } = await escapee(ws);
    yoke.kill('SIGKILL');
    await yoke;
    expect(isSameProcess(pid, startTime)).toBe(true);
    // it is in the cgroup yoke made for that call, which outlived yoke
    expect(/^0::.*\/yoke-[0-9a-f]{12}-\d+-\d+-[0-9a-f]+$/m.test(readFileSync(`/proc/${pid}/cgroup`, 'utf8'))).toBe(true);

    const resumed = await runYoke(ws, ['run', '--quiet']);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(isSameProcess(pid, startTime), `escaped pid ${pid} is still running`).toBe(false);
  }, TIMEOUT);
});
