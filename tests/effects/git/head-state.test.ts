import { afterEach, describe, expect, it } from 'vitest';
import { checkHead, readHead } from '../../../effects/git/head-state.js';
import { makeProject, type TempProject } from '../support/temp-project.js';

let p: TempProject;
afterEach(async () => {
  await p.cleanup();
});

describe('head state', () => {
  it('reads the branch and commit, an unborn branch and a detached HEAD', async () => {
    p = await makeProject({ 'a.txt': 'a' });
    const branch = await p.git('symbolic-ref', '--short', 'HEAD');
    expect(await readHead(p.root)).toEqual({ branch, sha: null });
    await p.git('add', '-A');
    await p.git('commit', '-q', '-m', 'one');
    const sha = await p.git('rev-parse', 'HEAD');
    expect(await readHead(p.root)).toEqual({ branch, sha });
    await p.git('checkout', '-q', '--detach');
    expect(await readHead(p.root)).toEqual({ branch: null, sha });
  });

  it('issue 20.8: names the expected commit as lost once HEAD no longer contains it', async () => {
    p = await makeProject({ 'a.txt': 'a' }, { commit: true });
    const first = await p.git('rev-parse', 'HEAD');
    await p.write('b.txt', 'b');
    await p.git('add', '-A');
    await p.git('commit', '-q', '-m', 'two');
    const second = await p.git('rev-parse', 'HEAD');
    expect((await checkHead(p.root, first)).lost).toBeNull(); // an ancestor: kept
    expect((await checkHead(p.root, second)).lost).toBeNull(); // HEAD itself
    await p.git('reset', '-q', '--hard', 'HEAD~1');
    expect(await checkHead(p.root, second)).toMatchObject({ sha: first, lost: second });
    expect((await checkHead(p.root, 'f'.repeat(40))).lost).toBe('f'.repeat(40)); // unknown to git
  });
});
