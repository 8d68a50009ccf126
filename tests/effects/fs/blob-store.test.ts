import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { blobPath, getBlob, putBlob } from '../../../effects/fs/blob-store.js';

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
});
