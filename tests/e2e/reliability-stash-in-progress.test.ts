// `yoke run` while a stash command holds the workspace, or after one was killed mid-restore (issue
// 20, item 12): it must say a stash operation is in progress or unfinished, not "yoke.conf does not
// exist"; an unfinished one is finished first, exactly as the next stash command would.
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { processStartTime } from '../../effects/process/process-identity.js';
import { makeJudgedWorkspace } from '../support/judged-workspace.js';
import { readJournal } from '../support/journal-records.js';
import { killQuietly, markProcesses, type ProcessMark } from '../support/process-liveness.js';
import { runYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 90_000;
const workspaces: Workspace[] = [];
const leftovers: ProcessMark[] = [];
afterEach(async () => {
  killQuietly(leftovers.splice(0));
  for (const ws of workspaces.splice(0)) await ws.cleanup();
});

async function stashedWorkspace(): Promise<Workspace> {
  const { ws } = await makeJudgedWorkspace({ mode: 'loop', conf: ['max-iterations 2', 'commit off'], script: { worker: [{ notes: 'DONE' }], after: { worker: { notes: 'DONE' } } } });
  workspaces.push(ws);
  const stashed = await runYoke(ws, ['stash']);
  expect(stashed.exitCode, stashed.stderr).toBe(0);
  expect(existsSync(ws.abs('.loop/yoke.conf'))).toBe(false);
  return ws;
}

describe('issue 20 item 12: a misleading refusal during a stash operation', () => {
  it('while `yoke stash pop` holds the lock, `yoke run` says a stash operation is at work (exit 3), not that yoke.conf is missing', async () => {
    const ws = await stashedWorkspace();
    // a live process holds the workspace lock as `yoke stash pop` (pid + start time, as yoke writes it)
    const holder = spawn('sleep', ['120'], { stdio: 'ignore' });
    const pid = holder.pid ?? 0;
    leftovers.push(...markProcesses(pid));
    writeFileSync(ws.abs('.loop/.journal/lock'), `${JSON.stringify({ pid, startTime: processStartTime(pid), command: 'yoke stash pop' })}\n`);
    const refused = await runYoke(ws, ['run', '--quiet']);
    expect(refused.exitCode, refused.stderr).toBe(3);
    expect(refused.stderr).toContain(`a stash operation (\`yoke stash pop\`, pid ${pid}) is moving the files of .loop/ right now; wait for it to finish`);
    expect(refused.stderr).not.toMatch(/yoke\.conf/);
  }, TIMEOUT);

  it('after `yoke stash pop` was killed mid-restore, `yoke run` finishes the pop, says so, and runs', async () => {
    const ws = await stashedWorkspace();
    const killed = await runYoke(ws, ['stash', 'pop'], { env: { YOKE_FAILPOINT: 'stash-place:1' } });
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    expect(existsSync(ws.abs('.loop/yoke.conf')), 'the kill left yoke.conf unrestored').toBe(false);

    const run = await runYoke(ws, ['run', '--quiet']);
    expect(run.stderr).not.toMatch(/yoke\.conf does not exist/);
    expect(run.stderr).toMatch(/finished an interrupted `yoke stash pop`/);
    expect(run.exitCode, run.stderr).toBe(0);
    const records = await readJournal(ws);
    expect(records.some((r) => r.type === 'stash.ended')).toBe(true);
    expect(records.at(-1)?.type).toBe('run.finished');
  }, TIMEOUT);

  it('after a successful `yoke stash`, `yoke run` said "yoke.conf does not exist; run yoke init": it names the stash and `yoke stash pop` (exit 2, nothing run)', async () => {
    const ws = await stashedWorkspace();
    const refused = await runYoke(ws, ['run', '--quiet']);
    expect(refused.exitCode, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/yoke\.conf does not exist because \.loop\/ is in the stash \(the newest entry [0-9a-f]{12}, loop\); bring it back with `yoke stash pop`/);
    expect(refused.stderr).not.toMatch(/run `yoke init loop`/);
    expect((await readJournal(ws)).some((r) => r.type === 'run.started')).toBe(false);

    const popped = await runYoke(ws, ['stash', 'pop']);
    expect(popped.exitCode, popped.stderr).toBe(0);
    const run = await runYoke(ws, ['run', '--quiet']);
    expect(run.exitCode, run.stderr).toBe(0);
  }, TIMEOUT);

  it('after `yoke stash` was killed mid-clear, `yoke run` finishes the stash and then names `yoke stash pop`', async () => {
    const { ws } = await makeJudgedWorkspace({ mode: 'loop', conf: ['max-iterations 2', 'commit off'], script: { worker: [{ notes: 'DONE' }] } });
    workspaces.push(ws);
    const killed = await runYoke(ws, ['stash', '-m', 'half done'], { env: { YOKE_FAILPOINT: 'stash-clear:1' } });
    expect(killed.signal, killed.stderr).toBe('SIGKILL');

    const run = await runYoke(ws, ['run', '--quiet']);
    expect(run.stderr).toMatch(/finished an interrupted `yoke stash`/);
    expect(run.stderr).toMatch(/\.loop\/ is in the stash \(the newest entry [0-9a-f]{12} "half done", loop\); bring it back with `yoke stash pop`/);
    expect(run.exitCode, run.stderr).toBe(2);
  }, TIMEOUT);
});
