import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../../effects/fs/write-file-atomic.js';
import { environmentFault } from '../../../errors/environment-fault.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'yoke-atomic-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('creates a file with the given mode and leaves no temp file', async () => {
    await writeFileAtomic(join(dir, 'a.md'), 'hello', 0o600);
    expect(await readFile(join(dir, 'a.md'), 'utf8')).toBe('hello');
    expect((await stat(join(dir, 'a.md'))).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['a.md']);
  });

  it('replaces an existing file', async () => {
    await writeFile(join(dir, 'a.md'), 'old content that is longer');
    await writeFileAtomic(join(dir, 'a.md'), Buffer.from('new'));
    expect(await readFile(join(dir, 'a.md'), 'utf8')).toBe('new');
    expect((await stat(join(dir, 'a.md'))).mode & 0o777).toBe(0o644);
  });

  it('fails without leaving a temp file when the target is a directory', async () => {
    await mkdir(join(dir, 'taken'));
    await writeFile(join(dir, 'taken', 'inside'), 'keep');
    await expect(writeFileAtomic(join(dir, 'taken'), 'x')).rejects.toThrow();
    expect((await readdir(dir)).sort()).toEqual(['taken']);
  });

  it('a failed rename was reported as the temp file: the error, and so the exit-3 sentence, name the destination', async () => {
    await mkdir(join(dir, 'guard-results.md'));
    await writeFile(join(dir, 'guard-results.md', 'inside'), 'keep');
    const error = await writeFileAtomic(join(dir, 'guard-results.md'), 'x').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'EISDIR', path: join(dir, 'guard-results.md') });
    const fault = environmentFault(error);
    expect(fault?.message).toMatch(new RegExp(`^${join(dir, 'guard-results.md').replace(/[.]/g, '\\.')} is a directory where yoke needs a file`));
    expect(fault?.message).not.toMatch(/\.tmp/);
  });

  it('fails when the directory does not exist', async () => {
    await expect(writeFileAtomic(join(dir, 'no', 'a.md'), 'x')).rejects.toThrow(/ENOENT/);
  });
});
