// Content-addressed blobs under `.loop/.journal/blobs/<sha256>`: spec backups and displaced content,
// mirrored under `.git/yoke/blobs/` so an agent that removes `.loop/` does not take the backups with it.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { access, mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { environmentFault } from '../../errors/environment-fault.js';
import { YokeError } from '../../errors/yoke-error.js';
import { readOptionalFile } from './read-optional-file.js';
import { writeFileAtomic } from './write-file-atomic.js';
import { journalEntry } from '../../config/workspace-layout.js';

/** The hex sha256 of some bytes (the blob's name). */
export function sha256(content: Buffer | string): string {
  return createHash('sha256').update(content).digest('hex');
}

/** Where the blob with this hash lives. */
export function blobPath(loopDir: string, hash: string): string {
  return join(journalEntry(loopDir, 'blobs'), hash);
}

/**
 * Where the copy of the blobs outside `.loop/` lives: `.git/yoke/blobs/` of the project, or null when
 * the project has no `.git` directory of its own (no git, or a linked worktree whose `.git` is a file).
 */
export function blobMirrorDir(loopDir: string): string | null {
  const gitDir = join(dirname(loopDir), '.git');
  return statSync(gitDir, { throwIfNoEntry: false })?.isDirectory() === true ? join(gitDir, 'yoke', 'blobs') : null;
}

/**
 * Store `content` durably and return its sha256, in `.journal/blobs/` and in the mirror; a copy
 * already present is left untouched.
 */
export async function putBlob(loopDir: string, content: Buffer): Promise<string> {
  const hash = sha256(content);
  await putOnce(journalEntry(loopDir, 'blobs'), hash, content);
  const mirror = blobMirrorDir(loopDir);
  if (mirror !== null) await putOnce(mirror, hash, content);
  return hash;
}

async function putOnce(dir: string, hash: string, content: Buffer): Promise<void> {
  const path = join(dir, hash);
  try {
    await access(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(dir, { recursive: true });
    await writeFileAtomic(path, content, 0o444);
  }
}

/** The mirror's copy of a blob when it exists and is intact, else null; a mirror that cannot be read (not absent) is thrown. */
async function mirroredBlob(loopDir: string, hash: string): Promise<Buffer | null> {
  const mirror = blobMirrorDir(loopDir);
  if (mirror === null) return null;
  const content = await readBlobFile(join(mirror, hash));
  return content !== null && sha256(content) === hash ? content : null;
}

/** A blob file's bytes, null when absent; a file system that refuses the read is the environment's fault (exit 3). */
export async function readBlobFile(path: string): Promise<Buffer | null> {
  try {
    return await readOptionalFile(path);
  } catch (error) {
    throw environmentFault(error, path) ?? error;
  }
}

/**
 * The content of a stored blob. A blob missing from `.journal/blobs/` is taken from the mirror and
 * put back. Missing from both, or corrupt, means yoke's private folders were damaged, so the
 * workspace is refused (exit 3) with how to recover; it is not an effect to retry. So is a blob the
 * file system will not read (permission denied, an I/O error, a directory in its place).
 */
export async function getBlob(loopDir: string, hash: string): Promise<Buffer> {
  if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error(`"${hash}" is not a blob hash (expected 64 hex digits)`);
  const path = blobPath(loopDir, hash);
  let content: Buffer;
  try {
    content = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw environmentFault(error, path) ?? error;
    const mirrored = await mirroredBlob(loopDir, hash);
    if (mirrored !== null) {
      await putOnce(journalEntry(loopDir, 'blobs'), hash, mirrored);
      return mirrored;
    }
    throw missingBlob(loopDir, hash, error);
  }
  if (sha256(content) !== hash) {
    const mirrored = await mirroredBlob(loopDir, hash);
    if (mirrored !== null) {
      await writeFileAtomic(path, mirrored, 0o444);
      return mirrored;
    }
    throw corruptBlob(path);
  }
  return content;
}

/**
 * The content of a stored blob, read synchronously (a plan's reader): the copy in `.journal/blobs/`,
 * else the mirror's, refused as getBlob refuses. Nothing is repaired here; getBlob does that when
 * the run reads the blob again.
 */
export function getBlobSync(loopDir: string, hash: string): Buffer {
  if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error(`"${hash}" is not a blob hash (expected 64 hex digits)`);
  const path = blobPath(loopDir, hash);
  const mirror = blobMirrorDir(loopDir);
  const content = readBlobFileSync(path);
  if (content !== null && sha256(content) === hash) return content;
  const mirrored = mirror === null ? null : readBlobFileSync(join(mirror, hash));
  if (mirrored !== null && sha256(mirrored) === hash) return mirrored;
  throw content === null ? missingBlob(loopDir, hash) : corruptBlob(path);
}

function readBlobFileSync(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw environmentFault(error, path) ?? error;
  }
}

function missingBlob(loopDir: string, hash: string, cause?: unknown): YokeError {
  return new YokeError(
    'workspace',
    `blob ${hash} is missing from ${journalEntry(loopDir, 'blobs')} and from .git/yoke/blobs/: the run's backups of its spec files were removed, so it cannot go on; start a new run with \`yoke run --fresh\` (if .loop/yoke.conf is gone too, recreate the files first with \`yoke init <mode>\`).`,
    [], cause === undefined ? undefined : { cause },
  );
}

function corruptBlob(path: string): YokeError {
  return new YokeError('workspace', `blob ${path} is corrupt: its content does not match its name; the run cannot trust its spec backups — start a new run with \`yoke run --fresh\`.`);
}
