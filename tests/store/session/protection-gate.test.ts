// The protection gate's soundness check: a baseline whose blobs are gone, or unreadable, refuses the workspace.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { blobPath, putBlob } from '../../../effects/fs/blob-store.js';
import { makeProtection } from '../../../machines/protect/protection.js';
import { checkSound } from '../../../store/session/protection-gate.js';
import { workspacePaths, type WorkspacePaths } from '../../../store/session/workspace-paths.js';

let paths: WorkspacePaths;
beforeEach(async () => {
  paths = workspacePaths(await mkdtemp(join(tmpdir(), 'yoke-protection-gate-')));
});
afterEach(async () => {
  await rm(paths.root, { recursive: true, force: true });
});

describe('checkSound', () => {
  it('passes a baseline whose blobs are all there', async () => {
    const sha256 = await putBlob(paths.loopDir, Buffer.from('npm test\n'));
    await expect(checkSound(paths, makeProtection(['tests/'], [{ path: 'tests/a.sh', mode: 0o100644, sha256 }]), null)).resolves.toBeUndefined();
  });

  it('a missing blob is named missing; a blob the file system will not read is named as that fault, not as missing', async () => {
    const sha256 = 'c'.repeat(64);
    const protection = makeProtection(['tests/'], [{ path: 'tests/a.sh', mode: 0o100644, sha256 }]);
    await expect(checkSound(paths, protection, null)).rejects.toThrow(/copy of tests\/a\.sh \(blob cccccccccccc\) is missing from/);
    await mkdir(blobPath(paths.loopDir, sha256), { recursive: true });
    await expect(checkSound(paths, protection, null)).rejects.toMatchObject({ code: 'workspace' });
    await expect(checkSound(paths, protection, null)).rejects.toThrow(/ is a directory where yoke needs a file/);
  });
});
