// `worktree.remove` (DESIGN §10): a lane's worktree and branch go only once the target contains the story's commit.
import { stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeWorktree } from '../../../effects/handlers/worktree-remove.js';
import { laneWorktreePath } from '../../../effects/worktree/locate-lane-worktree.js';
import { makeContext } from '../support/effect-context.js';
import { makeProject, type TempProject } from '../support/temp-project.js';

let p: TempProject;
afterEach(async () => {
  await p.cleanup();
});

const exists = (path: string): Promise<boolean> => stat(path).then(() => true, () => false);

describe('worktree.remove', () => {
  it('refuses to remove a worktree whose commit the target lacks (nothing removed), and removes worktree, branch and the emptied folder of the project\'s lanes once the target has it', async () => {
    p = await makeProject({ 'a.txt': 'a\n' }, { commit: true });
    const lane = await laneWorktreePath(p.root, 'S1');
    await p.git('worktree', 'add', '-q', '-b', 'yoke/RUN1/S1', lane, 'main');
    await writeFile(join(lane, 'work.txt'), 'S1\n');
    await p.git('-C', lane, 'add', 'work.txt');
    await p.git('-C', lane, 'commit', '-q', '-m', 'feat(S1): work');
    const landed = await p.git('-C', lane, 'rev-parse', 'HEAD');
    const params = { lane: 'S1', story: 'S1', branch: 'yoke/RUN1/S1', landed, target: 'main' };
    const { ctx } = makeContext(lane, join(lane, '.loop'), { projectRoot: p.root, projectLoopDir: p.loopDir });

    expect(await removeWorktree.execute(params, ctx)).toEqual({ removed: false });
    expect(await exists(lane)).toBe(true);
    expect(await p.git('branch', '--list', 'yoke/RUN1/S1')).toContain('yoke/RUN1/S1');

    await p.git('merge', '-q', '--ff-only', landed);
    expect(await removeWorktree.execute(params, ctx)).toEqual({ removed: true });
    expect(await exists(lane)).toBe(false);
    expect(await exists(dirname(lane)), 'the project\'s folder of lane worktrees goes with its last lane').toBe(false);
    expect(await p.git('branch', '--list', 'yoke/*')).toBe('');
    expect(await p.git('worktree', 'list', '--porcelain')).not.toContain('yoke/worktrees');
  });

  it('removes a worktree a run made at the old place (.git/yoke/worktrees/<story>) there, and that emptied folder', async () => {
    p = await makeProject({ 'a.txt': 'a\n' }, { commit: true });
    const lane = join(p.root, '.git', 'yoke', 'worktrees', 'S1');
    await p.git('worktree', 'add', '-q', '-b', 'yoke/RUN1/S1', lane, 'main');
    const landed = await p.git('rev-parse', 'HEAD');
    const { ctx } = makeContext(lane, join(lane, '.loop'), { projectRoot: p.root, projectLoopDir: p.loopDir });
    expect(await removeWorktree.execute({ lane: 'S1', story: 'S1', branch: 'yoke/RUN1/S1', landed, target: 'main' }, ctx)).toEqual({ removed: true });
    expect(await exists(dirname(lane))).toBe(false);
    expect(await p.git('worktree', 'list', '--porcelain')).not.toContain('yoke/worktrees');
    expect(await p.git('branch', '--list', 'yoke/*')).toBe('');
  });
});
