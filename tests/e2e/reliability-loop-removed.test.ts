// An agent that runs `rm -rf .loop` (issue 20, item 10): yoke stops the run (exit 3) and puts its
// journal back. The spec backups in `.journal/blobs/` are gone with it, but yoke keeps a copy of
// every backup under `.git/yoke/blobs/`, so the next `yoke run` restores the spec files and finishes.
// Only when that copy is gone too must every later `yoke run` say exactly how to recover
// (`yoke init <mode>`, then `yoke run --fresh`), and following that advice must work.
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { makeJudgedWorkspace } from '../support/judged-workspace.js';
import { runYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 90_000;
const workspaces: Workspace[] = [];
afterEach(async () => {
  for (const ws of workspaces.splice(0)) await ws.cleanup();
});

describe('issue 20 item 10: an agent that ran `rm -rf .loop` left a run that could never finish', () => {
  it('the stop is exit 3; the next `yoke run` restores the spec files from .git/yoke/blobs and .loop/.gitignore, and finishes; its commit neither deletes .gitignore nor takes the journal', async () => {
    const { ws } = await makeJudgedWorkspace({
      mode: 'loop',
      conf: ['max-iterations 3', 'commit done'],
      script: { worker: [{ sh: 'rm -rf .loop' }], after: { worker: { notes: 'DONE' } } },
    });
    workspaces.push(ws);
    const conf = await ws.read('.loop/yoke.conf');
    const stopped = await runYoke(ws, ['run', '--quiet']);
    expect(stopped.exitCode, stopped.stderr).toBe(3);
    expect(await ws.exists('.git/yoke/blobs')).toBe(true);

    const again = await runYoke(ws, ['run', '--quiet']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(await ws.read('.loop/yoke.conf')).toBe(conf);
    expect(await ws.read('.loop/.gitignore')).toBe('.journal/\n.stash/\nproof/\n');
    const git = (...args: string[]): string => execFileSync('git', args, { cwd: ws.path, encoding: 'utf8' });
    expect(git('log', '-1', '--format=%(trailers:key=Yoke-Run,valueonly)').trim()).not.toBe('');
    expect(git('ls-tree', '-r', '--name-only', 'HEAD', '.loop/').split('\n')).toContain('.loop/.gitignore');
    expect(git('ls-tree', '-r', '--name-only', 'HEAD', '.loop/')).not.toMatch(/\.journal/);
    // what a user's `git add -A` would take next: nothing of yoke's private folders
    expect(git('status', '--porcelain', '--untracked-files=all')).not.toMatch(/\.loop\/\.(journal|stash)/);
    const verify = await runYoke(ws, ['replay', '--verify']);
    expect(verify.exitCode, verify.stderr + verify.stdout).toBe(0);
  }, TIMEOUT);

  it('with .git/yoke removed too, the next `yoke run` names the recovery; `yoke init loop` + `yoke run --fresh` works', async () => {
    const { ws } = await makeJudgedWorkspace({
      mode: 'loop',
      conf: ['max-iterations 3', 'commit off'],
      script: { worker: [{ sh: 'rm -rf .loop .git/yoke' }], after: { worker: { notes: 'DONE' } } },
    });
    workspaces.push(ws);
    const stopped = await runYoke(ws, ['run', '--quiet']);
    expect(stopped.exitCode, stopped.stderr).toBe(3);

    const again = await runYoke(ws, ['run', '--quiet']);
    expect(again.exitCode).not.toBe(0);
    expect(again.stderr).not.toMatch(/unexpected error/);
    expect(again.stderr).toMatch(/yoke init <mode>/);
    expect(again.stderr).toMatch(/yoke run --fresh/);

    const init = await runYoke(ws, ['init', 'loop']);
    expect(init.exitCode, init.stderr).toBe(0);
    // the user writes their rules back into the fresh conf (yoke init's template names the installed agent and example guards)
    await ws.write('.loop/yoke.conf', `mode loop\nagent cmd sh ${ws.side('agent.sh')}\nmax-iterations 3\ncommit off\n`);
    const fresh = await runYoke(ws, ['run', '--fresh', '--quiet']);
    expect(fresh.exitCode, fresh.stderr).toBe(0);
  }, TIMEOUT);
});
