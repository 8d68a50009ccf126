// effects/worktree/lane-dependencies.ts (docs/parallel.md#where-lanes-work): a lane's worktree gets
// links to the main tree's git-ignored dependency folders, which git never sees and removal never follows.
import { lstat, readFile, readlink, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commitCandidate } from '../../../effects/handlers/candidate-commit.js';
import { createWorktree } from '../../../effects/handlers/worktree-create.js';
import { removeWorktree } from '../../../effects/handlers/worktree-remove.js';
import { laneWorktreePath } from '../../../effects/worktree/locate-lane-worktree.js';
import { settleLaneWorktree } from '../../../effects/worktree/settle-lane-worktree.js';
import { makeContext } from '../support/effect-context.js';
import { makeProject, type TempProject } from '../support/temp-project.js';

let p: TempProject;
afterEach(async () => {
  await p.cleanup();
});

const params = (story: string, base: string, attempt = 1) => ({ lane: story, story, branch: `yoke/RUN1/${story}`, base, attempt, reason: `${story} is ready` });
const kind = (path: string): Promise<string> => lstat(path).then((info) => (info.isSymbolicLink() ? 'link' : info.isDirectory() ? 'dir' : 'file'), () => 'absent');
const exclude = (): Promise<string> => readFile(join(p.root, '.git', 'info', 'exclude'), 'utf8');

/**
 * A project whose `.gitignore` ignores node_modules/, .venv/ and venv/ (directory rules, which match
 * no link); node_modules is installed (ignored), .venv is not there, venv is tracked (force-added).
 */
async function projectWithDependencies(): Promise<string> {
  p = await makeProject({ '.gitignore': 'node_modules/\n.venv/\nvenv/\n', 'a.txt': 'a\n' });
  await p.write('venv/tracked.txt', 'tracked\n');
  await p.git('add', '-A');
  await p.git('add', '-f', 'venv/tracked.txt');
  await p.git('commit', '-q', '-m', 'initial');
  await p.write('node_modules/dep/index.js', 'module.exports = 42;\n');
  await writeFile(join(p.root, '.git', 'info', 'exclude'), '# the user\'s own\n*.local');
  return p.git('rev-parse', 'HEAD');
}

describe('linkLaneDependencies', () => {
  it('links only the main tree\'s git-ignored, installed dependency folders into a lane, where neither git status nor the candidate sees them, and removing the lane leaves the main node_modules intact', async () => {
    const base = await projectWithDependencies();
    const { ctx, warnings } = makeContext(p.root, p.loopDir);
    const created = await createWorktree.execute(params('S1', base), ctx);
    const lane = await laneWorktreePath(p.root, 'S1');

    expect(await kind(join(lane, 'node_modules'))).toBe('link');
    expect(await readlink(join(lane, 'node_modules'))).toBe(join(p.root, 'node_modules'));
    expect(await readFile(join(lane, 'node_modules', 'dep', 'index.js'), 'utf8')).toBe('module.exports = 42;\n');
    expect(await kind(join(lane, '.venv')), 'not installed in the main tree: nothing to link').toBe('absent');
    expect(await kind(join(lane, 'venv')), 'tracked: checked out in the lane, not replaced').toBe('dir');
    expect(await p.git('-C', lane, 'status', '--porcelain', '--untracked-files=all', '--', '.', ':!.loop')).toBe('');
    // the journaled tree is the base's: the link is not part of the lane's work
    expect(created.tree).toBe(await p.git('rev-parse', `${base}^{tree}`));
    expect(await exclude()).toBe('# the user\'s own\n*.local\n# yoke: parallel lanes link the main tree\'s dependency folders (docs/parallel.md#where-lanes-work)\n/node_modules\n');

    // a second lane, and the first one reset for its next attempt: the link stays, the exclude line is not added twice
    await createWorktree.execute(params('S2', base), ctx);
    await createWorktree.execute(params('S1', base, 2), ctx);
    expect(await kind(join(lane, 'node_modules'))).toBe('link');
    expect(await kind(join(await laneWorktreePath(p.root, 'S2'), 'node_modules'))).toBe('link');
    expect((await exclude()).match(/^\/node_modules$/gm)).toHaveLength(1);

    // the candidate's `git add -A` leaves the link out
    await writeFile(join(lane, 'out.txt'), 'work\n');
    const { ctx: laneCtx } = makeContext(lane, join(lane, '.loop'), { projectRoot: p.root, projectLoopDir: p.loopDir, key: 'RUN1/9/0' });
    const candidate = await commitCandidate.execute({ lane: 'S1', story: 'S1', base, message: 'feat(S1): Story S1' }, laneCtx);
    expect(await p.git('show', '--name-only', '--format=', candidate.sha)).toBe('out.txt');

    // landed, then removed: the link goes, never what it points to
    await p.git('merge', '-q', '--ff-only', candidate.sha);
    expect(await removeWorktree.execute({ lane: 'S1', story: 'S1', branch: 'yoke/RUN1/S1', landed: candidate.sha, target: 'main' }, laneCtx)).toEqual({ removed: true });
    expect(await kind(lane)).toBe('absent');
    expect(await readFile(join(p.root, 'node_modules', 'dep', 'index.js'), 'utf8')).toBe('module.exports = 42;\n');
    expect(warnings).toEqual([]);
  });

  it('links the dependency folders into a worktree that settling makes again on resume', async () => {
    const base = await projectWithDependencies();
    const lane = await laneWorktreePath(p.root, 'S1');
    await p.git('worktree', 'add', '-q', '-b', 'yoke/RUN1/S1', lane, base);
    await rm(lane, { recursive: true, force: true });
    const warnings: string[] = [];
    const expected = { story: 'S1', branch: 'yoke/RUN1/S1', commit: base, phase: 'turn' as const, compareHead: true, attempt: 1 };
    expect(await settleLaneWorktree({ root: p.root, loopDir: p.loopDir }, 'RUN1', expected, (message) => warnings.push(message))).toMatchObject({ kind: 'remade', why: 'missing' });
    expect(await kind(join(lane, 'node_modules'))).toBe('link');
    expect(await p.git('-C', lane, 'status', '--porcelain', '--untracked-files=all', '--', '.', ':!.loop')).toBe('');
    expect(warnings).toEqual([]);
  });

  it('does not link a folder whose link git would still see in the lane (a .gitignore negation beats info/exclude), and warns instead', async () => {
    p = await makeProject({ '.gitignore': '!node_modules\nnode_modules/\n' }, { commit: true });
    await p.write('node_modules/dep/index.js', 'module.exports = 42;\n');
    const base = await p.git('rev-parse', 'HEAD');
    const { ctx, warnings } = makeContext(p.root, p.loopDir);
    await createWorktree.execute(params('S1', base), ctx);
    const lane = await laneWorktreePath(p.root, 'S1');
    expect(await kind(join(lane, 'node_modules'))).toBe('absent');
    expect(await p.git('-C', lane, 'status', '--porcelain', '--untracked-files=all', '--', '.', ':!.loop')).toBe('');
    expect(warnings).toEqual([`did not link ${p.root}/node_modules into ${lane}: git would see the link there; install the dependencies in the lane's guards or checks instead`]);
    expect((await stat(join(p.root, 'node_modules', 'dep', 'index.js'))).isFile()).toBe(true);
  });
});
