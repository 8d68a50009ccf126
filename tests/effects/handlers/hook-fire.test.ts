import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireHook, settleHooks } from '../../../effects/handlers/hook-fire.js';
import { signalGroup } from '../../../effects/process/terminate-group.js';
import { makeContext } from '../support/effect-context.js';
import { makeProject, type TempProject } from '../support/temp-project.js';

let p: TempProject;
beforeEach(async () => {
  p = await makeProject({}, { git: false });
});
afterEach(async () => {
  await p.cleanup();
});

/** Every file under `dir`, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => relative(dir, join(entry.parentPath, entry.name))).sort();
}

describe('hook.fire', () => {
  it('returns at once and runs the hook in the root with YOKE_EVENT/RUN/ITERATION', async () => {
    const t = makeContext(p.root, p.loopDir);
    const begun = performance.now();
    const result = await fireHook.execute(
      { event: 'run-start', command: 'sleep 0.3; echo "$YOKE_EVENT $YOKE_RUN $YOKE_ITERATION $(pwd)" > hook-out', iteration: 0 },
      t.ctx,
    );
    expect(result).toEqual({ started: true });
    expect(performance.now() - begun).toBeLessThan(250);
    await settleHooks(5_000);
    expect(await readFile(join(p.root, 'hook-out'), 'utf8')).toBe(`run-start RUN1 0 ${p.root}\n`);
    expect(t.warnings).toEqual([]);
    expect(fireHook.policy).toBe('surface');
  });

  it('turns a failing hook into one warning naming its log; output goes only to that log', async () => {
    const t = makeContext(p.root, p.loopDir);
    await fireHook.execute({ event: 'iteration-end', command: 'echo noisy; echo oops >&2; exit 3', iteration: 2 }, t.ctx);
    await settleHooks(5_000);
    expect(t.warnings).toEqual(['hook iteration-end failed (exit 3); see .loop/.journal/hooks/RUN1-7-0.log']);
    expect(t.stdout() + t.stderr()).toBe('');
    const log = await readFile(join(p.loopDir, '.journal', 'hooks', 'RUN1-7-0.log'), 'utf8');
    expect(log).toContain('noisy\n');
    expect(log).toContain('oops\n');
    expect((await filesUnder(p.loopDir)).filter((file) => !file.startsWith('.journal/'))).toEqual(['.gitignore']);
  });

  it('warns when the hook cannot be started at all', async () => {
    const t = makeContext(join(p.root, 'missing'), p.loopDir);
    const result = await fireHook.execute({ event: 'done', command: 'true', iteration: 1 }, t.ctx);
    expect(result).toEqual({ started: false });
    await settleHooks(5_000);
    expect(t.warnings).toHaveLength(1);
    expect(t.warnings[0]).toMatch(/^hook done failed \(could not start: .*ENOENT.*\); see /);
  });

  it('settleHooks gives up after its timeout, leaving a slow hook running', async () => {
    const t = makeContext(p.root, p.loopDir);
    await fireHook.execute({ event: 'bailout', command: 'echo $$ > hook-pid; exec sleep 100', iteration: 1 }, t.ctx);
    const begun = performance.now();
    await settleHooks(200);
    expect(performance.now() - begun).toBeLessThan(1_000);
    const pid = Number(await readFile(join(p.root, 'hook-pid'), 'utf8'));
    expect(signalGroup(pid, 'SIGKILL')).toBe(true);
    await settleHooks(5_000);
    expect(t.warnings).toEqual(['hook bailout failed (killed by SIGKILL); see .loop/.journal/hooks/RUN1-7-0.log']);
  });
});
