import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discardHalfMadeWorktree } from '../../../effects/worktree/half-made-worktree.js';
import { laneWorktreePath } from '../../../effects/worktree/locate-lane-worktree.js';
import { makeProject, type TempProject } from '../support/temp-project.js';

let p: TempProject;
afterEach(async () => {
  await p.cleanup();
});

const exists = (path: string): Promise<boolean> => stat(path).then(() => true, () => false);

async function withWorktree(): Promise<string> {
  p = await makeProject({ 'a.txt': 'a\n' }, { commit: true });
  const path = await laneWorktreePath(p.root, 'S1');
  await p.git('worktree', 'add', '-q', '-b', 'yoke/RUN/S1', path);
  return path;
}

describe('half-made worktree', () => {
  it('keeps a worktree whose add completed', async () => {
    const path = await withWorktree();
    expect(await discardHalfMadeWorktree(p.root, path)).toBe(false);
    expect(await exists(join(path, 'a.txt'))).toBe(true);
  });

  it.each([
    ['still locked "initializing" (killed during the checkout)', (admin: string) => writeFile(join(admin, 'locked'), 'initializing\n')],
    ['without commondir (killed before git wrote it)', (admin: string) => rm(join(admin, 'commondir'))],
  ])('removes a worktree and its registration when its add never finished: %s', async (_name, cut) => {
    const path = await withWorktree();
    await cut(join(p.root, '.git', 'worktrees', 'S1'));
    expect(await discardHalfMadeWorktree(p.root, path)).toBe(true);
    expect(await exists(path)).toBe(false);
    expect(await exists(join(p.root, '.git', 'worktrees', 'S1'))).toBe(false);
    expect(await p.git('worktree', 'list', '--porcelain')).not.toMatch(/S1/);
  });

  it('leaves alone a directory no registration names, and a path that is not there', async () => {
    p = await makeProject({ 'a.txt': 'a\n' }, { commit: true });
    const path = await laneWorktreePath(p.root, 'S1');
    expect(await discardHalfMadeWorktree(p.root, path)).toBe(false);
    await mkdir(path, { recursive: true });
    await writeFile(join(path, 'keep.txt'), 'not git\'s\n');
    expect(await discardHalfMadeWorktree(p.root, path)).toBe(false);
    expect(await exists(join(path, 'keep.txt'))).toBe(true);
  });

  it('removes a folder git made before its registration named it (killed in between): empty, or holding only a .git file that points into this repository', async () => {
    p = await makeProject({ 'a.txt': 'a\n' }, { commit: true });
    const path = await laneWorktreePath(p.root, 'S1');
    await mkdir(path, { recursive: true });
    expect(await discardHalfMadeWorktree(p.root, path)).toBe(true);
    expect(await exists(path)).toBe(false);
    await mkdir(path, { recursive: true });
    await writeFile(join(path, '.git'), `gitdir: ${join(p.root, '.git', 'worktrees', 'S1')}\n`);
    expect(await discardHalfMadeWorktree(p.root, path)).toBe(true);
    expect(await exists(path)).toBe(false);
    // a .git file of another repository's worktree is not ours to remove
    await mkdir(path, { recursive: true });
    await writeFile(join(path, '.git'), 'gitdir: /elsewhere/.git/worktrees/S1\n');
    expect(await discardHalfMadeWorktree(p.root, path)).toBe(false);
    expect(await exists(join(path, '.git'))).toBe(true);
  });
});
