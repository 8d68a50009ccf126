import { chmod, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCommit, summarySha } from '../../../effects/handlers/commit-create.js';
import { YokeError } from '../../../errors/yoke-error.js';
import { makeContext } from '../support/effect-context.js';
import { makeProject, type TempProject } from '../support/temp-project.js';

let p: TempProject;

/** The message of the workspace refusal `promise` rejects with (fails the test otherwise). */
async function refusal(promise: Promise<unknown> | undefined): Promise<string> {
  const error = await Promise.resolve(promise).then(() => null, (failure: unknown) => failure);
  expect(error).toBeInstanceOf(YokeError);
  expect((error as YokeError).code).toBe('workspace');
  return (error as YokeError).message;
}

afterEach(async () => {
  await p.cleanup();
});

describe('commit.create', () => {
  it('commits everything but .loop/.journal and .loop/.stash with the message and both trailers', async () => {
    p = await makeProject({ 'a.txt': 'a', '.loop/plan.md': 'plan', '.loop/.journal/journal.jsonl': '{}', '.loop/.stash/s': 's' });
    await rm(join(p.loopDir, '.gitignore')); // excluded even when .loop/.gitignore is gone
    const { ctx } = makeContext(p.root, p.loopDir);
    const result = await createCommit.execute({ message: '# yoke: iteration 3 done\n\nDetails.\n', iteration: 3 }, ctx);
    expect(result.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(await p.git('rev-parse', 'HEAD')).toBe(result.sha);
    expect(await p.git('log', '-1', '--format=%B')).toBe('# yoke: iteration 3 done\n\nDetails.\n\nYoke-Run: RUN1\nYoke-Effect: RUN1/7/0');
    expect(await p.git('log', '-1', '--format=%(trailers:key=Yoke-Effect,valueonly)')).toBe('RUN1/7/0');
    expect((await p.git('ls-tree', '-r', '--name-only', 'HEAD')).split('\n')).toEqual(['.loop/plan.md', 'a.txt']);
    expect(createCommit.policy).toBe('reconcile');
  });

  it('commits with the usual .loop/.gitignore in place (yoke-owned folders ignored, not an error)', async () => {
    p = await makeProject({ 'a.txt': 'a', '.loop/notes.md': 'n', '.loop/.journal/journal.jsonl': '{}', '.loop/.stash/s': 's' });
    const { ctx } = makeContext(p.root, p.loopDir);
    const result = await createCommit.execute({ message: 'iteration 1', iteration: 1 }, ctx);
    expect(result.sha).toMatch(/^[0-9a-f]{40}$/);
    const files = (await p.git('ls-tree', '-r', '--name-only', 'HEAD')).split('\n');
    expect(files).toContain('.loop/notes.md');
    expect(files.filter((file) => file.startsWith('.loop/.journal') || file.startsWith('.loop/.stash'))).toEqual([]);
  });

  it('returns null when there is nothing to commit', async () => {
    p = await makeProject({ 'a.txt': 'a' }, { commit: true });
    const { ctx } = makeContext(p.root, p.loopDir);
    expect(await createCommit.execute({ message: 'nothing', iteration: 1 }, ctx)).toEqual({ sha: null });
    expect(await p.git('rev-list', '--count', 'HEAD')).toBe('1');
  });

  it('reconcile finds the commit by its exact Yoke-Effect trailer, else null (not happened: execute)', async () => {
    p = await makeProject({ 'a.txt': 'a' });
    const other = makeContext(p.root, p.loopDir, { key: 'RUN1/7/01' });
    const mine = makeContext(p.root, p.loopDir);
    expect(await createCommit.reconcile?.({ message: 'm', iteration: 1 }, mine.ctx)).toBeNull();
    const { sha } = await createCommit.execute({ message: 'other effect', iteration: 1 }, other.ctx);
    expect(await createCommit.reconcile?.({ message: 'm', iteration: 1 }, mine.ctx)).toBeNull();
    await p.write('b.txt', 'b');
    const created = await createCommit.execute({ message: 'mine', iteration: 2 }, mine.ctx);
    await p.git('checkout', '-q', '-b', 'elsewhere', sha ?? '');
    expect(await createCommit.reconcile?.({ message: 'm', iteration: 2 }, mine.ctx)).toEqual(created);
  });

  it('issue 20.8: never commits onto another branch, nor on top of a HEAD that lost the run’s last commit (exit 3, the way back)', async () => {
    p = await makeProject({ 'a.txt': 'a' }, { commit: true });
    const branch = await p.git('symbolic-ref', '--short', 'HEAD');
    const base = await p.git('rev-parse', 'HEAD');
    const { ctx } = makeContext(p.root, p.loopDir);
    await p.write('b.txt', 'b');
    const first = await createCommit.execute({ message: 'one', iteration: 1, head: { branch, sha: base } }, ctx);
    expect(first.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(first.branch).toBe(branch);

    await p.git('checkout', '-q', '-b', 'other');
    await p.write('c.txt', 'c');
    const second = makeContext(p.root, p.loopDir, { key: 'RUN1/9/0' }).ctx;
    expect(await refusal(createCommit.execute({ message: 'two', iteration: 2, head: { branch, sha: first.sha } }, second)))
      .toContain(`HEAD is on branch \`other\`, but this run commits onto branch \`${branch}\``);
    expect(await p.git('rev-parse', 'other')).toBe(first.sha);

    await p.git('checkout', '-q', branch);
    await p.git('reset', '-q', '--hard', 'HEAD~1');
    expect(await refusal(createCommit.execute({ message: 'two', iteration: 2, head: { branch, sha: first.sha } }, second)))
      .toContain(`commit ${first.sha ?? ''} is no longer on branch \`${branch}\``);
    expect(await p.git('rev-parse', 'HEAD')).toBe(base);
    // reconcile: yoke's commit exists but is no longer on the branch — the same refusal, naming it
    expect(await refusal(createCommit.reconcile?.({ message: 'one', iteration: 1, head: { branch, sha: base } }, ctx)))
      .toContain(`git reset --keep ${first.sha ?? ''}`);
  });

  it('supplies the yoke identity when git has none, and skips hooks', async () => {
    p = await makeProject({ 'a.txt': 'a' });
    await p.git('config', '--unset', 'user.name');
    await p.git('config', '--unset', 'user.email');
    await p.git('config', 'user.useConfigOnly', 'true');
    await p.write('.git/hooks/pre-commit', '#!/bin/sh\nexit 1\n');
    await chmod(join(p.root, '.git', 'hooks', 'pre-commit'), 0o755);
    const saved = { global: process.env.GIT_CONFIG_GLOBAL, system: process.env.GIT_CONFIG_NOSYSTEM };
    process.env.GIT_CONFIG_GLOBAL = '/dev/null';
    process.env.GIT_CONFIG_NOSYSTEM = '1';
    try {
      const { ctx } = makeContext(p.root, p.loopDir);
      const result = await createCommit.execute({ message: 'first', iteration: 1 }, ctx);
      expect(result.sha).not.toBeNull();
      expect(await p.git('log', '-1', '--format=%an <%ae> / %cn <%ce>')).toBe('yoke <yoke@localhost> / yoke <yoke@localhost>');
    } finally {
      for (const [name, value] of [['GIT_CONFIG_GLOBAL', saved.global], ['GIT_CONFIG_NOSYSTEM', saved.system]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('commits deletions and renames, and names the new commit on a detached HEAD too', async () => {
    p = await makeProject({ 'keep.txt': 'k', 'gone.txt': 'g', 'old/name.txt': 'r' }, { commit: true });
    await rm(join(p.root, 'gone.txt'));
    await rename(join(p.root, 'old'), join(p.root, 'new'));
    await p.git('checkout', '-q', '--detach');
    const { ctx } = makeContext(p.root, p.loopDir);
    const result = await createCommit.execute({ message: 'moves', iteration: 2 }, ctx);
    expect(result.sha).toBe(await p.git('rev-parse', 'HEAD'));
    expect((await p.git('ls-tree', '-r', '--name-only', 'HEAD')).split('\n')).toEqual(['.loop/.gitignore', 'keep.txt', 'new/name.txt']);
    expect(await p.git('status', '--porcelain')).toBe('');
  });

  it('does not conclude a merge in progress when nothing is staged', async () => {
    p = await makeProject({ 'a.txt': 'a' }, { commit: true });
    const head = await p.git('rev-parse', 'HEAD');
    await writeFile(join(p.root, '.git', 'MERGE_HEAD'), `${head}\n`);
    const { ctx } = makeContext(p.root, p.loopDir);
    expect(await createCommit.execute({ message: 'nothing', iteration: 1 }, ctx)).toEqual({ sha: null });
    expect(await p.git('rev-list', '--count', 'HEAD')).toBe('1');
  });

  it('fails (never reports "nothing to commit") when staging fails', async () => {
    p = await makeProject({ 'a.txt': 'a' }, { commit: true });
    await p.write('b.txt', 'b');
    await writeFile(join(p.root, '.git', 'index.lock'), '');
    const { ctx } = makeContext(p.root, p.loopDir);
    await expect(createCommit.execute({ message: 'blocked', iteration: 1 }, ctx)).rejects.toThrow(/git add -A failed in .*index\.lock/s);
  });
});

describe('summarySha', () => {
  it('reads the full id from git commit\'s summary line, else null', () => {
    const sha = 'efa5cf2385ec135361e7dd23930ab91c420d567c';
    expect(summarySha(`[main (root-commit) ${sha}] m1\n 1 file changed\n`)).toBe(sha);
    expect(summarySha(`[detached HEAD ${sha}] subject [x ${'1'.repeat(40)}] tricky\n`)).toBe(sha);
    expect(summarySha(`[a]b ${sha}] weird branch\n`)).toBe(sha);
    expect(summarySha('[main efa5cf2] abbreviated\n')).toBeNull();
    expect(summarySha('')).toBeNull();
  });
});
