// effects/acceptance/hash-artifact.ts and artifact-snapshot.ts on real files: what a binding sees.
import { createHash } from 'node:crypto';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { snapshotArtifacts } from '../../../effects/acceptance/artifact-snapshot.js';
import { hashArtifact, type HashBudget } from '../../../effects/acceptance/hash-artifact.js';
import { makeProject, type TempProject } from '../support/temp-project.js';

let p: TempProject;
beforeEach(async () => {
  p = await makeProject({ 'dist/app.js': 'console.log(1)\n', 'dist/big.bin': 'x'.repeat(3 * 1024 * 1024) }, { git: false });
});
afterEach(() => p.cleanup());

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
const budget = (over: Partial<HashBudget> = {}): HashBudget => ({
  maxFileBytes: 1 << 30, remainingBytes: 1 << 30, deadline: Date.now() + 60_000, signal: new AbortController().signal, ...over,
});

describe('hashArtifact', () => {
  it('a regular file: its SHA-256 and size, read in chunks (a file larger than one chunk too)', async () => {
    expect(await hashArtifact(p.root, 'dist/app.js', budget())).toEqual({ state: 'file', sha256: sha('console.log(1)\n'), size: 15 });
    expect(await hashArtifact(p.root, 'dist/big.bin', budget())).toEqual({ state: 'file', sha256: sha('x'.repeat(3 * 1024 * 1024)), size: 3 * 1024 * 1024 });
  });

  it('missing, a folder, a missing folder on the way', async () => {
    expect(await hashArtifact(p.root, 'dist/none.js', budget())).toMatchObject({ state: 'missing', sha256: null });
    expect(await hashArtifact(p.root, 'dist', budget())).toMatchObject({ state: 'not-a-file' });
    expect(await hashArtifact(p.root, 'dist/app.js/x', budget())).toMatchObject({ state: 'missing' });
    expect(await hashArtifact(p.root, 'build/app.js', budget())).toMatchObject({ state: 'missing' });
  });

  it('a symbolic link anywhere on the path fails, even one pointing inside the project', async () => {
    await symlink('app.js', join(p.root, 'dist', 'link.js'));
    await symlink(join(p.root, 'dist'), join(p.root, 'out'));
    await symlink('/etc', join(p.root, 'etc'));
    expect(await hashArtifact(p.root, 'dist/link.js', budget())).toMatchObject({ state: 'symlink' });
    expect(await hashArtifact(p.root, 'out/app.js', budget())).toMatchObject({ state: 'symlink' });
    expect(await hashArtifact(p.root, 'etc/hostname', budget())).toMatchObject({ state: 'symlink' });
  });

  it('a FIFO is not a file (and is never opened, which would block)', async () => {
    await execa('mkfifo', [join(p.root, 'dist', 'pipe')]);
    expect(await hashArtifact(p.root, 'dist/pipe', budget())).toMatchObject({ state: 'not-a-file' });
  });

  it('limits: the file size, the snapshot budget, the deadline, an abort', async () => {
    expect(await hashArtifact(p.root, 'dist/big.bin', budget({ maxFileBytes: 1024 }))).toEqual({ state: 'too-large', sha256: null, size: 3 * 1024 * 1024 });
    expect(await hashArtifact(p.root, 'dist/big.bin', budget({ remainingBytes: 1024 }))).toMatchObject({ state: 'over-budget' });
    expect(await hashArtifact(p.root, 'dist/app.js', budget({ deadline: Date.now() - 1 }))).toMatchObject({ state: 'timed-out' });
    const aborted = new AbortController();
    aborted.abort();
    expect(await hashArtifact(p.root, 'dist/app.js', budget({ signal: aborted.signal }))).toMatchObject({ state: 'timed-out' });
  });
});

describe('snapshotArtifacts', () => {
  it('shares one byte budget across the artifacts of a snapshot, in order', async () => {
    await mkdir(join(p.root, 'more'));
    await writeFile(join(p.root, 'more', 'b.bin'), 'y'.repeat(2 * 1024 * 1024));
    const limits = { maxFileBytes: 4 * 1024 * 1024, maxSnapshotBytes: 4 * 1024 * 1024, maxSnapshotMs: 60_000 };
    const found = await snapshotArtifacts(p.root, ['dist/big.bin', 'more/b.bin', 'dist/app.js'], new AbortController().signal, limits);
    expect(found.map((entry) => entry.state)).toEqual(['file', 'over-budget', 'file']);
  });
});
