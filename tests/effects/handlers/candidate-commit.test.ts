// `candidate.commit` (DESIGN §10): the lane's work outside `.loop/` as one commit on its base.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commitCandidate } from '../../../effects/handlers/candidate-commit.js';
import { makeContext } from '../support/effect-context.js';
import { makeProject, type TempProject } from '../support/temp-project.js';

let p: TempProject;
afterEach(async () => {
  await p.cleanup();
});

describe('candidate.commit', () => {
  it('a worker that committed on its own does not get its commit landed as is: the candidate is one commit on the base holding the working tree the gates saw', async () => {
    p = await makeProject({ 'checks/s1.sh': 'test -f out.txt\n', '.loop/prd.yaml': 'stories: []\n' }, { commit: true });
    const base = await p.git('rev-parse', 'HEAD');
    // the worker weakens the check and commits it (with a .loop/ change), then yoke restores the check in the working tree
    await p.write('checks/s1.sh', 'exit 0\n');
    await p.write('.loop/prd.yaml', 'stories: [edited]\n');
    await p.write('out.txt', 'work\n');
    await p.git('add', '-A');
    await p.git('commit', '-q', '-m', 'my own commit');
    await writeFile(join(p.root, 'checks/s1.sh'), 'test -f out.txt\n');
    const { ctx } = makeContext(p.root, p.loopDir, { key: 'RUN1/40/0' });
    const params = { lane: 'S1', story: 'S1', base, message: 'feat(S1): Story S1' };
    const result = await commitCandidate.execute(params, ctx);
    expect(await p.git('rev-parse', `${result.sha}^`)).toBe(base);
    expect((await p.git('show', '--name-only', '--format=', result.sha)).split('\n')).toEqual(['out.txt']);
    expect(await p.git('show', '-s', '--format=%B', result.sha)).toMatch(/^feat\(S1\): Story S1\n\nYoke-Story: S1\nYoke-Run: RUN1\nYoke-Effect: RUN1\/40\/0$/);
    // run again (a crash after the commit): the same candidate, no second commit
    expect(await commitCandidate.execute(params, ctx)).toEqual(result);
  });
});
