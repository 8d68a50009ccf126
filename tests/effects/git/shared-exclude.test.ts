// effects/git/shared-exclude.ts: patterns go into the repository's own info/exclude once, the user's lines kept.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addSharedExcludes } from '../../../effects/git/shared-exclude.js';
import { makeProject, type TempProject } from '../support/temp-project.js';

let p: TempProject;
afterEach(async () => {
  await p.cleanup();
});

const HEADER = '# yoke: parallel lanes link the main tree\'s dependency folders (docs/parallel.md#where-lanes-work)';

describe('addSharedExcludes', () => {
  it('appends only the missing patterns after the user\'s last line (even one without a newline), its header once', async () => {
    p = await makeProject();
    const file = join(p.root, '.git', 'info', 'exclude');
    await writeFile(file, '# mine\n/node_modules\n*.local');
    expect(await addSharedExcludes(p.root, ['/node_modules', '/.venv'])).toEqual(['/.venv']);
    expect(await addSharedExcludes(p.root, ['/.venv', '/venv'])).toEqual(['/venv']);
    expect(await addSharedExcludes(p.root, ['/node_modules', '/.venv', '/venv'])).toEqual([]);
    expect(await readFile(file, 'utf8')).toBe(`# mine\n/node_modules\n*.local\n${HEADER}\n/.venv\n/venv\n`);
  });

  it('makes info/exclude when the repository has none, and git then ignores what it names', async () => {
    p = await makeProject();
    await rm(join(p.root, '.git', 'info'), { recursive: true, force: true });
    await p.write('stray', 'x\n');
    expect(await addSharedExcludes(p.root, ['/stray'])).toEqual(['/stray']);
    expect(await p.git('status', '--porcelain', '--', 'stray')).toBe('');
  });
});
