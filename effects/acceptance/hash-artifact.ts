// Hashing one declared artifact safely: a regular file reached without following any symbolic
// link, inside the project, read in bounded chunks against a byte budget and a deadline.
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import type { ArtifactSnapshot } from '../../machines/acceptance/check-report.js';

/** How much one artifact may be read, and until when. */
export interface HashBudget {
  /** the file's own size limit */
  maxFileBytes: number;
  /** bytes this snapshot may still read (shared by its artifacts) */
  remainingBytes: number;
  /** epoch ms when the snapshot's time is up */
  deadline: number;
  signal: AbortSignal;
}

const CHUNK_BYTES = 1 << 20;

function snapshot(state: ArtifactSnapshot['state'], sha256: string | null = null, size: number | null = null): ArtifactSnapshot {
  return { state, sha256, size };
}

/**
 * The state, SHA-256 and size of `path` (project-relative, normalized by the config). Every
 * folder on the way and the file itself are looked at with lstat, so a symbolic link anywhere
 * fails the binding as `symlink`; the file is then opened with O_NOFOLLOW and must be the same
 * inode, so it cannot be swapped for a link in between. The deadline and the abort signal are
 * checked between chunk reads; a single blocked read is not interrupted.
 */
export async function hashArtifact(root: string, path: string, budget: HashBudget): Promise<ArtifactSnapshot> {
  const segments = path.split('/');
  let at = root;
  let inode = { dev: -1, ino: -1 };
  for (const [index, segment] of segments.entries()) {
    at = join(at, segment);
    const stats = await lstat(at).catch((error: NodeJS.ErrnoException) => error);
    if (stats instanceof Error) return snapshot(stats.code === 'ENOENT' || stats.code === 'ENOTDIR' ? 'missing' : 'unreadable');
    if (stats.isSymbolicLink()) return snapshot('symlink');
    const last = index === segments.length - 1;
    if (!last && !stats.isDirectory()) return snapshot('missing');
    if (last && !stats.isFile()) return snapshot('not-a-file');
    inode = { dev: stats.dev, ino: stats.ino };
  }
  const [realRoot, realFile] = await Promise.all([realpath(root), realpath(at)]).catch(() => [null, null]);
  if (realRoot === null || realFile === null) return snapshot('unreadable');
  if (!realFile.startsWith(realRoot + sep)) return snapshot('escapes');
  return readAndHash(at, inode, budget);
}

async function readAndHash(file: string, inode: { dev: number; ino: number }, budget: HashBudget): Promise<ArtifactSnapshot> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW).catch((error: NodeJS.ErrnoException) => error);
  if (handle instanceof Error) return snapshot(handle.code === 'ELOOP' ? 'symlink' : handle.code === 'ENOENT' ? 'missing' : 'unreadable');
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return snapshot('not-a-file');
    // Replaced between the look and the open: this is not the file that was checked.
    if (stats.dev !== inode.dev || stats.ino !== inode.ino) return snapshot('unreadable');
    if (stats.size > budget.maxFileBytes) return snapshot('too-large', null, stats.size);
    if (stats.size > budget.remainingBytes) return snapshot('over-budget', null, stats.size);
    const hash = createHash('sha256');
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let size = 0;
    for (;;) {
      if (budget.signal.aborted || Date.now() > budget.deadline) return snapshot('timed-out', null, stats.size);
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      size += bytesRead;
      // The file may grow while it is read: the limits hold for what is actually read.
      if (size > budget.maxFileBytes) return snapshot('too-large', null, size);
      if (size > budget.remainingBytes) return snapshot('over-budget', null, size);
      hash.update(buffer.subarray(0, bytesRead));
    }
    return snapshot('file', hash.digest('hex'), size);
  } catch {
    return snapshot('unreadable');
  } finally {
    await handle.close();
  }
}
