import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cutShortFastForward, finishFastForward } from '../../../effects/worktree/cut-short-fast-forward.js';
import { laneWorktreePath } from '../../../effects/worktree/locate-lane-worktree.js';
import { makeProject, type TempProject } from '../support/temp-project.js';

let p: TempProject;
afterEach(async () => {
  await p.cleanup();
});

/** A project on `main` at `from`, a lane worktree whose HEAD is the story's landing commit, and the main tree cut short halfway to it. */
async function cutShort(story = 'S1', run = 'RUN1'): Promise<{ from: string; sha: string; lane: string }> {
  p = await makeProject({ 'a.txt': 'a\n' }, { commit: true });
  const from = await p.git('rev-parse', 'HEAD');
  const lane = await laneWorktreePath(p.root, story);
  await p.git('worktree', 'add', '-q', '-b', `yoke/${run}/${story}`, lane, from);
  await writeFile(join(lane, 'a.txt'), 'a, landed\n');
  await writeFile(join(lane, 'b.txt'), 'b\n');
  await p.git('-C', lane, 'add', '-A');
  await p.git('-C', lane, 'commit', '-q', '-m', `feat(${story}): work\n\nYoke-Story: ${story}\nYoke-Run: ${run}\nYoke-Effect: ${run}/9/0\n`);
  const sha = await p.git('-C', lane, 'rev-parse', 'HEAD');
  // what `git merge --ff-only` has done when it is killed before moving the branch
  await p.git('read-tree', '-u', '-m', 'HEAD', sha);
  return { from, sha, lane };
}

describe('cut-short fast-forward', () => {
  it('names the lane commit the main working tree already holds, and finishing it moves the branch there', async () => {
    const { from, sha, lane } = await cutShort();
    const landing = { story: 'S1', target: 'main', from };
    expect(await cutShortFastForward(p.root, lane, landing, 'RUN1')).toBe(sha);
    await finishFastForward(p.root, landing, sha);
    expect(await p.git('rev-parse', 'main')).toBe(sha);
    expect(await p.git('status', '--porcelain')).toBe('');
  });

  it('is not one when anything else changed the main tree, the commit is another run\'s, or no fast-forward began', async () => {
    const { from, lane } = await cutShort();
    const landing = { story: 'S1', target: 'main', from };
    expect(await cutShortFastForward(p.root, lane, landing, 'RUN2')).toBeNull();
    expect(await cutShortFastForward(p.root, lane, { ...landing, story: 'S2' }, 'RUN1')).toBeNull();
    await p.write('notes.txt', 'mine\n');
    expect(await cutShortFastForward(p.root, lane, landing, 'RUN1')).toBeNull();
    await p.git('clean', '-q', '-f', 'notes.txt');
    await p.write('a.txt', 'edited by hand\n');
    expect(await cutShortFastForward(p.root, lane, landing, 'RUN1')).toBeNull();
    await p.git('reset', '-q', '--hard', from);
    expect(await cutShortFastForward(p.root, lane, landing, 'RUN1')).toBeNull();
  });

  it('clears the branch locks git left only when they hold the same commit; another git command\'s lock stops it', async () => {
    const { from, sha } = await cutShort();
    const landing = { story: 'S1', target: 'main', from };
    const refLock = join(p.root, '.git', 'refs', 'heads', 'main.lock');
    await writeFile(refLock, `${'0'.repeat(40)}\n`);
    await expect(finishFastForward(p.root, landing, sha)).rejects.toThrow(/main\.lock is locked by another git command.*remove the lock file/);
    expect(await readFile(refLock, 'utf8')).toBe(`${'0'.repeat(40)}\n`);
    await writeFile(refLock, `${sha}\n`);
    await writeFile(join(p.root, '.git', 'HEAD.lock'), '');
    await finishFastForward(p.root, landing, sha);
    expect(await p.git('rev-parse', 'main')).toBe(sha);
    expect(await stat(refLock).then(() => true, () => false)).toBe(false);
  });
});
