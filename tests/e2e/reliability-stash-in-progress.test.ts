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
});
