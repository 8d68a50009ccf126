import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../../cli/exit-codes.js';
import { blobMirrorDir, blobPath, getBlob, putBlob } from '../../../effects/fs/blob-store.js';
import { YokeError } from '../../../errors/yoke-error.js';

let loopDir: string;
beforeEach(async () => {
  loopDir = await mkdtemp(join(tmpdir(), 'yoke-blobs-'));
});
afterEach(async () => {
  await rm(loopDir, { recursive: true, force: true });
});

describe('putBlob / getBlob', () => {
  it('stores content under .journal/blobs/<sha256> and reads it back', async () => {
    const content = Buffer.from('plan: build it\n');
    const hash = await putBlob(loopDir, content);
    expect(hash).toBe(createHash('sha256').update(content).digest('hex'));
    expect(blobPath(loopDir, hash)).toBe(join(loopDir, '.journal', 'blobs', hash));
    expect(await getBlob(loopDir, hash)).toEqual(content);
  });

  it('skips a blob that is already present', async () => {
    const hash = await putBlob(loopDir, Buffer.from('same'));
    const before = await stat(blobPath(loopDir, hash));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await putBlob(loopDir, Buffer.from('same'))).toBe(hash);
    expect((await stat(blobPath(loopDir, hash))).mtimeMs).toBe(before.mtimeMs);
    expect(await readdir(join(loopDir, '.journal', 'blobs'))).toEqual([hash]);
  });

  it('stores empty content', async () => {
    const hash = await putBlob(loopDir, Buffer.alloc(0));
    expect((await getBlob(loopDir, hash)).length).toBe(0);
  });

  it('refuses a missing blob, a malformed hash and a corrupt blob with clear messages', async () => {
    await expect(getBlob(loopDir, 'a'.repeat(64))).rejects.toThrow(/is missing/);
    await expect(getBlob(loopDir, '../x')).rejects.toThrow(/not a blob hash/);
    const hash = await putBlob(loopDir, Buffer.from('original'));
    await rm(blobPath(loopDir, hash));
    await writeFile(blobPath(loopDir, hash), 'tampered');
    await expect(getBlob(loopDir, hash)).rejects.toThrow(/corrupt/);
  });

  it('a blob the file system will not read (a directory in its place) refuses the workspace (exit 3), not a missing blob nor a raw error', async () => {
    const hash = 'b'.repeat(64);
    await mkdir(blobPath(loopDir, hash), { recursive: true });
    const refused = await getBlob(loopDir, hash).then(() => null, (error: unknown) => error);
    expect(refused).toBeInstanceOf(YokeError);
    expect(refused).toMatchObject({ code: 'workspace' });
    expect((refused as YokeError).message.startsWith(`${blobPath(loopDir, hash)} is a directory where yoke needs a file`)).toBe(true);
    expect(exitCodeFor(refused)).toBe(3);
  });
});

describe('the copy of the blobs under .git/yoke/blobs (issue 20, item 10)', () => {
  let project: string;
  let projectLoop: string;
  beforeEach(async () => {
    project = await mkdtemp(join(tmpdir(), 'yoke-blob-mirror-'));
    await mkdir(join(project, '.git'));
    projectLoop = join(project, '.loop');
  });
  afterEach(async () => {
    await rm(project, { recursive: true, force: true });
  });

  it('puts every blob in both places, and none outside a project with a .git directory', async () => {
    const hash = await putBlob(projectLoop, Buffer.from('spec'));
    expect(blobMirrorDir(projectLoop)).toBe(join(project, '.git', 'yoke', 'blobs'));
    expect(await readFile(join(project, '.git', 'yoke', 'blobs', hash), 'utf8')).toBe('spec');
    expect(blobMirrorDir(loopDir)).toBeNull();
  });

  it('a blob removed with .loop/ comes back from the copy and is put back in place', async () => {
    const hash = await putBlob(projectLoop, Buffer.from('plan: build it\n'));
    await rm(projectLoop, { recursive: true, force: true });
    expect((await getBlob(projectLoop, hash)).toString()).toBe('plan: build it\n');
    expect(await readFile(blobPath(projectLoop, hash), 'utf8')).toBe('plan: build it\n');
  });

  it('a corrupt blob is replaced by an intact copy; a corrupt copy is never used', async () => {
    const hash = await putBlob(projectLoop, Buffer.from('original'));
    await rm(blobPath(projectLoop, hash));
    await writeFile(blobPath(projectLoop, hash), 'tampered');
    expect((await getBlob(projectLoop, hash)).toString()).toBe('original');
    await rm(blobPath(projectLoop, hash));
    const copy = join(project, '.git', 'yoke', 'blobs', hash);
    await rm(copy);
    await writeFile(copy, 'tampered too');
    await expect(getBlob(projectLoop, hash)).rejects.toThrow(/is missing .* and from \.git\/yoke\/blobs/);
  });
});
