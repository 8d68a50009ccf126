// effects/worktree/locate-lane-worktree.ts (DESIGN §10): a lane works under the state home, outside
// the project and its .git/, unless a worktree of the story is still at the old place.
import { createHash } from 'node:crypto';
import { realpath, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { laneWorktreePath, projectWorktreesDir } from '../../../effects/worktree/locate-lane-worktree.js';
import { makeProject, type TempProject } from '../support/temp-project.js';

let p: TempProject;
afterEach(async () => {
  await p.cleanup();
});

describe('laneWorktreePath', () => {
  it('a new lane works in <XDG_STATE_HOME>/yoke/worktrees/<folder>-<12 hex of sha256(real root)>/<story>, outside the project and every .git/', async () => {
    p = await makeProject({ 'a.txt': 'a\n' }, { commit: true });
    const real = await realpath(p.root);
    const folder = `${basename(real)}-${createHash('sha256').update(real).digest('hex').slice(0, 12)}`;
    const path = await laneWorktreePath(p.root, 'S1', { XDG_STATE_HOME: '/state', HOME: '/home/u' });
    expect(path).toBe(`/state/yoke/worktrees/${folder}/S1`);
    expect(await projectWorktreesDir(p.root, { XDG_STATE_HOME: '/state' })).toBe(`/state/yoke/worktrees/${folder}`);
    // a relative XDG_STATE_HOME is ignored, as the XDG spec says
    expect(await laneWorktreePath(p.root, 'S1', { XDG_STATE_HOME: 'state', HOME: '/home/u' })).toBe(`/home/u/.local/state/yoke/worktrees/${folder}/S1`);
  });

  it('a worktree of the story still at the old place (.git/yoke/worktrees/<story>) is used on, also after it was deleted by hand while git lists it; once pruned, the lane moves', async () => {
    p = await makeProject({ 'a.txt': 'a\n' }, { commit: true });
    const legacy = join(p.root, '.git', 'yoke', 'worktrees', 'S1');
    await p.git('worktree', 'add', '-q', '-b', 'yoke/RUN1/S1', legacy, 'main');
    const env = { XDG_STATE_HOME: '/state' };
    expect(await laneWorktreePath(p.root, 'S1', env)).toBe(legacy);
    expect(await laneWorktreePath(p.root, 'S2', env), 'another story is not at the old place').toMatch(/^\/state\/yoke\/worktrees\/.+\/S2$/);
    await rm(legacy, { recursive: true, force: true });
    expect(await laneWorktreePath(p.root, 'S1', env)).toBe(legacy);
    await p.git('worktree', 'prune');
    expect(await laneWorktreePath(p.root, 'S1', env)).toMatch(/^\/state\/yoke\/worktrees\/.+\/S1$/);
  });
});
