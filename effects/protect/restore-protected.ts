// Putting protected files back as the baseline has them (content, type and permission bits).
import { lstat, mkdir, rm, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SYMLINK_MODE, type ProtectedFile } from '../../machines/protect/protection.js';
import { getBlob, sha256 } from '../fs/blob-store.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';

/** Does the file at `path` already equal `file` (content and mode)? */
async function matches(root: string, file: ProtectedFile): Promise<boolean> {
  const info = await lstat(join(root, file.path)).catch(() => null);
  if (info === null) return false;
  const mode = info.isSymbolicLink() ? SYMLINK_MODE | (info.mode & 0o777) : info.mode & 0o170777;
  if (mode !== file.mode) return false;
  if (info.isSymbolicLink()) return false;
  const { readFile } = await import('node:fs/promises');
  return sha256(await readFile(join(root, file.path))) === file.sha256;
}

/**
 * Write each of `write` from its blob (a symlink is recreated with its link text) and remove each
 * of `remove`; returns the paths that changed, sorted. Idempotent: a second call changes nothing.
 */
export async function restoreProtected(root: string, loopDir: string, write: readonly ProtectedFile[], remove: readonly string[]): Promise<string[]> {
  const restored: string[] = [];
  for (const file of write) {
    if (await matches(root, file)) continue;
    const path = join(root, file.path);
    const content = await getBlob(loopDir, file.sha256);
    await mkdir(dirname(path), { recursive: true });
    const existing = await lstat(path).catch(() => null);
    if (existing !== null && !existing.isFile()) await rm(path, { recursive: true, force: true });
    if ((file.mode & 0o170000) === SYMLINK_MODE) {
      await rm(path, { force: true });
      await symlink(content.toString(), path);
    } else {
      await writeFileAtomic(path, content, file.mode & 0o7777);
    }
    restored.push(file.path);
  }
  for (const path of remove) {
    const existing = await lstat(join(root, path)).catch(() => null);
    if (existing === null) continue;
    await rm(join(root, path), { recursive: true, force: true });
    restored.push(path);
  }
  return restored.sort();
}
