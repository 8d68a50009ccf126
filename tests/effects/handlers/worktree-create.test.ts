// `worktree.create` (DESIGN §10): a lane's worktree cut from the target; an existing one is reset, and
// commits of it that the target lacks are kept under refs/yoke/<run>/retained/<story>/<attempt> first.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorktree } from '../../../effects/handlers/worktree-create.js';
import { laneWorktreePath } from '../../../effects/worktree/locate-lane-worktree.js';
import { makeContext } from '../support/effect-context.js';
import { makeProject, type TempProject } from '../support/temp-project.js';

let p: TempProject;
afterEach(async () => {
  await p.cleanup();
});

const params = (base: string, attempt: number) => ({ lane: 'S1', story: 'S1', branch: 'yoke/RUN1/S1', base, attempt, reason: 'S1 is ready' });

describe('worktree.create', () => {
  it('a reset worktree\'s commits the target lacks are kept under refs/yoke/<run>/retained/<story>/<attempt>; commits the target has are not', async () => {
    p = await makeProject({ 'a.txt': 'a\n' }, { commit: true });
    const base = await p.git('rev-parse', 'HEAD');
    const lane = await laneWorktreePath(p.root, 'S1');
    const { ctx } = makeContext(p.root, p.loopDir);
    // made under the state home (the test run's XDG_STATE_HOME), journaled without this machine's path
    expect(lane.startsWith(`${process.env.XDG_STATE_HOME}/yoke/worktrees/`)).toBe(true);
    expect(await createWorktree.execute(params(base, 1), ctx)).toMatchObject({ sha: base, path: `$XDG_STATE_HOME/${relative(process.env.XDG_STATE_HOME!, lane)}` });
    // the first attempt's candidate, which never landed
    await writeFile(join(lane, 'work.txt'), 'attempt 1\n');
    await p.git('-C', lane, 'add', 'work.txt');
    await p.git('-C', lane, 'commit', '-q', '-m', 'attempt 1');
    const candidate = await p.git('-C', lane, 'rev-parse', 'HEAD');
    // meanwhile the target moved on
    await p.write('b.txt', 'b\n');
    await p.git('add', 'b.txt');
    await p.git('commit', '-q', '-m', 'another story landed');
    const target = await p.git('rev-parse', 'HEAD');
    await createWorktree.execute(params(target, 2), ctx);
    expect(await p.git('rev-parse', 'refs/yoke/RUN1/retained/S1/2')).toBe(candidate);
    expect(await p.git('-C', lane, 'rev-parse', 'HEAD')).toBe(target);
    expect(await p.git('-C', lane, 'status', '--porcelain', '--', '.', ':!.loop')).toBe('');
    // a worktree whose HEAD the target contains: nothing to keep
    await createWorktree.execute(params(target, 3), ctx);
    expect(await p.git('for-each-ref', '--format=%(refname)', 'refs/yoke/')).toBe('refs/yoke/RUN1/retained/S1/2');
  });

  it('a folder at the lane\'s place that a deleted clone at the same path left behind is refused, named, and left alone, not taken for a worktree', async () => {
    p = await makeProject({ 'a.txt': 'a\n' }, { commit: true });
    const base = await p.git('rev-parse', 'HEAD');
    const lane = await laneWorktreePath(p.root, 'S1');
    await mkdir(lane, { recursive: true });
    await writeFile(join(lane, '.git'), `gitdir: ${join(p.root, 'gone', '.git', 'worktrees', 'S1')}\n`);
    await writeFile(join(lane, 'work.txt'), 'the old clone\'s lane work\n');
    const { ctx } = makeContext(p.root, p.loopDir);
    await expect(createWorktree.execute(params(base, 1), ctx)).rejects.toThrow(`${lane} exists but is not a git worktree; move it away and run \`yoke run\` again`);
    expect(await readFile(join(lane, 'work.txt'), 'utf8')).toBe('the old clone\'s lane work\n');
  });
});
