import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { boundaryIndex } from '../../../effects/git/boundary-index.js';
import { captureWorkTree, changedSince } from '../../../effects/git/git-tree.js';
import { makeProject, type TempProject } from '../support/temp-project.js';

let p: TempProject;
afterEach(async () => {
  await p.cleanup();
});

async function cacheFiles(): Promise<string[]> {
  return (await readdir(join(p.root, '.git', 'yoke'))).sort();
}

describe('boundaryIndex', () => {
  it('keeps one index per project, for the latest baseline, in the git directory (not the real index)', async () => {
    p = await makeProject({ 'a.txt': 'a' }, { commit: true });
    const first = await captureWorkTree(p.root);
    expect(await cacheFiles()).toEqual([`boundary-${first}.index`]);
    await p.write('b.txt', 'b');
    const second = await captureWorkTree(p.root);
    expect(await cacheFiles()).toEqual([`boundary-${second}.index`]);
    expect(await boundaryIndex(p.root, second)).toBe(join(p.root, '.git', 'yoke', `boundary-${second}.index`));
    expect(await p.git('status', '--porcelain')).toBe('?? b.txt');
  });

  it('rebuilds a cache index that was deleted: the scan stays right', async () => {
    p = await makeProject({ 'a.txt': 'a', 'b.txt': 'b' }, { commit: true });
    const tree = await captureWorkTree(p.root);
    await rm(join(p.root, '.git', 'yoke'), { recursive: true });
    await p.write('a.txt', 'changed');
    await rm(join(p.root, 'b.txt'));
    expect(await changedSince(p.root, tree)).toEqual(['a.txt', 'b.txt']);
    expect(await cacheFiles()).toEqual([`boundary-${tree}.index`]);
  });

  it('never trusts a cache index changed by someone else: it is rebuilt from the baseline tree', async () => {
    p = await makeProject({ 'a.txt': 'a' }, { commit: true });
    const tree = await captureWorkTree(p.root);
    await p.write('a.txt', 'changed by the agent');
    await p.write('new.txt', 'new');
    // Someone stages the changes into yoke's cache index, which would hide them from `git status`.
    const cache = await boundaryIndex(p.root, tree);
    await execa('git', ['add', '-A', '--', '.', ':(exclude).loop'], { cwd: p.root, env: { GIT_INDEX_FILE: cache } });
    expect(await changedSince(p.root, tree)).toEqual(['a.txt', 'new.txt']);
  });

  it('works for the empty tree of a repository with no commits and no index', async () => {
    p = await makeProject({}, { commit: false });
    const empty = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
    await p.write('x/y.txt', 'y');
    expect(await changedSince(p.root, empty)).toEqual(['x/y.txt']);
  });
});
