import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { captureWorkTree } from '../../../effects/git/git-tree.js';
import { scanBoundary } from '../../../effects/handlers/boundary-scan.js';
import { makeContext } from '../support/effect-context.js';
import { makeProject, type TempProject } from '../support/temp-project.js';

let p: TempProject;
afterEach(async () => {
  await p.cleanup();
});

describe('boundary.scan', () => {
  it('lists changes outside .loop/: modified, added, untracked, deleted; not ignored ones', async () => {
    p = await makeProject({ '.gitignore': '*.log\n', 'src/a.ts': 'a', 'src/b.ts': 'b', 'README.md': 'r' }, { commit: true });
    const baseline = await captureWorkTree(p.root);
    await p.write('src/a.ts', 'a2');
    await rm(join(p.root, 'README.md'));
    await p.write('src/c.ts', 'c');
    await p.write('debug.log', 'ignored');
    await writeFile(join(p.loopDir, 'plan.md'), 'agent touched the plan');
    const { ctx } = makeContext(p.root, p.loopDir);
    expect(await scanBoundary.execute({ baseline }, ctx)).toEqual({ changed: ['README.md', 'src/a.ts', 'src/c.ts'] });
    expect(scanBoundary.policy).toBe('retry');
  });

  it('works in a repository with no commits yet', async () => {
    p = await makeProject({ 'a.txt': 'a' });
    const baseline = await captureWorkTree(p.root);
    await p.write('b.txt', 'b');
    await rm(join(p.root, 'a.txt'));
    const { ctx } = makeContext(p.root, p.loopDir);
    expect(await scanBoundary.execute({ baseline }, ctx)).toEqual({ changed: ['a.txt', 'b.txt'] });
  });
});
