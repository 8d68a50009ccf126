import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeLoopFile } from '../../../effects/handlers/file-write.js';
import { makeContext } from '../support/effect-context.js';
import { makeProject, type TempProject } from '../support/temp-project.js';

let p: TempProject;
beforeEach(async () => {
  p = await makeProject({}, { git: false });
});
afterEach(async () => {
  await p.cleanup();
});

describe('file.write', () => {
  it('writes .loop/<file> and returns the sha256 of its UTF-8 bytes', async () => {
    const { ctx } = makeContext(p.root, p.loopDir);
    const content = '# Guard results — iteration 3\n';
    const result = await writeLoopFile.execute({ file: 'guard-results.md', content }, ctx);
    expect(await readFile(join(p.loopDir, 'guard-results.md'), 'utf8')).toBe(content);
    expect(result.sha256).toBe(createHash('sha256').update(content, 'utf8').digest('hex'));
    await writeLoopFile.execute({ file: 'guard-results.md', content: 'next' }, ctx);
    expect(await readFile(join(p.loopDir, 'guard-results.md'), 'utf8')).toBe('next');
    expect(writeLoopFile.policy).toBe('retry');
  });

  it('refuses names with ".." or absolute paths', async () => {
    const { ctx } = makeContext(p.root, p.loopDir);
    await expect(writeLoopFile.execute({ file: '../escape.md', content: 'x' }, ctx)).rejects.toThrow(/inside \.loop/);
    await expect(writeLoopFile.execute({ file: 'a/../../b', content: 'x' }, ctx)).rejects.toThrow(/inside \.loop/);
    await expect(writeLoopFile.execute({ file: join(p.root, 'x.md'), content: 'x' }, ctx)).rejects.toThrow(/inside \.loop/);
    await expect(writeLoopFile.execute({ file: '', content: 'x' }, ctx)).rejects.toThrow(/inside \.loop/);
  });
});
