// Content-addressed blobs under `.loop/.journal/blobs/<sha256>`: spec backups and displaced content.
import { createHash } from 'node:crypto';
import { access, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { YokeError } from '../../errors/yoke-error.js';
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

/** Store `content` durably and return its sha256; a blob already present is left untouched. */
export async function putBlob(loopDir: string, content: Buffer): Promise<string> {
  const hash = sha256(content);
  const path = blobPath(loopDir, hash);
  try {
    await access(path);
    return hash;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(journalEntry(loopDir, 'blobs'), { recursive: true });
    await writeFileAtomic(path, content, 0o444);
    return hash;
  }
}

/**
 * The content of a stored blob. A missing or corrupt blob means yoke's private folder was damaged,
 * so the workspace is refused (exit 3) with how to recover; it is not an effect to retry.
 */
export async function getBlob(loopDir: string, hash: string): Promise<Buffer> {
  if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error(`"${hash}" is not a blob hash (expected 64 hex digits)`);
  const path = blobPath(loopDir, hash);
  let content: Buffer;
  try {
    content = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new YokeError(
        'workspace',
        `blob ${hash} is missing from ${journalEntry(loopDir, 'blobs')}: the run's backups of its spec files were removed, so it cannot go on; start a new run with \`yoke run --fresh\` (if .loop/yoke.conf is gone too, recreate the files first with \`yoke init <mode>\`).`,
        [], { cause: error },
      );
    }
    throw error;
  }
  if (sha256(content) !== hash) {
    throw new YokeError('workspace', `blob ${path} is corrupt: its content does not match its name; the run cannot trust its spec backups — start a new run with \`yoke run --fresh\`.`);
  }
  return content;
}
