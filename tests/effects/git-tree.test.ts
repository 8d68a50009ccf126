import { rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { captureWorkTree, changedSince } from '../../effects/git-tree.js';
import { makeProject, type TempProject } from './support/temp-project.js';

const projects: TempProject[] = [];
afterEach(async () => {
  for (const project of projects.splice(0)) await project.cleanup();
});
async function project(files: Record<string, string>, commit: boolean): Promise<TempProject> {
  const made = await makeProject(files, { commit });
  projects.push(made);
  return made;
}

describe('captureWorkTree', () => {
  it('works in a repository with no commits and no index', async () => {
    const p = await project({}, false);
    const empty = await captureWorkTree(p.root);
    expect(empty).toBe('4b825dc642cb6eb9a060e54bf8d69288fbee4904'); // .loop/ only: the empty tree
    await p.write('a.txt', 'a');
    expect(await changedSince(p.root, empty)).toEqual(['a.txt']);
  });

  it('leaves the real index untouched', async () => {
    const p = await project({ 'a.txt': 'a' }, true);
    await p.write('b.txt', 'b');
    await p.write('a.txt', 'changed');
    const statusBefore = await p.git('status', '--porcelain');
    await captureWorkTree(p.root);
    expect(await p.git('status', '--porcelain')).toBe(statusBefore);
    expect(await p.git('diff', '--cached', '--name-only')).toBe('');
  });

  it('is stable when nothing changed; .loop/ changes never count, even when .loop files are tracked', async () => {
    const p = await project({ 'a.txt': 'a', '.loop/plan.md': 'plan' }, true);
    const tree = await captureWorkTree(p.root);
    expect(await captureWorkTree(p.root)).toBe(tree);
    await p.write('.loop/plan.md', 'rewritten');
    await p.write('.loop/new.md', 'new');
    expect(await changedSince(p.root, tree)).toEqual([]);
    await p.write('a.txt', 'changed');
    expect(await changedSince(p.root, tree)).toEqual(['a.txt']);
  });
});

describe('changedSince', () => {
  it('lists modified, added, deleted and renamed paths, not ignored ones, sorted', async () => {
    const p = await project(
      { '.gitignore': 'build/\n', 'keep.txt': 'k', 'mod.txt': 'm', 'gone.txt': 'g', 'old/name.txt': 'r', 'z/deep.txt': 'd' },
      true,
    );
    const tree = await captureWorkTree(p.root);
    await p.write('mod.txt', 'changed');
    await unlink(join(p.root, 'gone.txt'));
    await p.write('new/untracked.txt', 'u');
    await p.write('build/out.o', 'ignored');
    await rm(join(p.root, 'old'), { recursive: true });
    await p.write('new/name.txt', 'r');
    await writeFile(join(p.loopDir, 'notes.md'), 'STATUS: DONE');
    expect(await changedSince(p.root, tree)).toEqual(['gone.txt', 'mod.txt', 'new/name.txt', 'new/untracked.txt', 'old/name.txt']);
  });

  it('sees a change that was staged or committed after the baseline', async () => {
    const p = await project({ 'a.txt': 'a' }, true);
    const tree = await captureWorkTree(p.root);
    await p.write('b.txt', 'b');
    await p.git('add', 'b.txt');
    await p.git('commit', '-q', '-m', 'agent commit');
    expect(await changedSince(p.root, tree)).toEqual(['b.txt']);
  });

  it('reports nothing when a change was reverted', async () => {
    const p = await project({ 'a.txt': 'a' }, true);
    const tree = await captureWorkTree(p.root);
    await p.write('a.txt', 'b');
    await p.write('a.txt', 'a');
    expect(await changedSince(p.root, tree)).toEqual([]);
  });
});
