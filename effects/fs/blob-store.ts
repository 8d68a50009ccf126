// Content-addressed blobs under `.loop/.journal/blobs/<sha256>`: spec backups and displaced content.
import { createHash } from 'node:crypto';
import { access, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './write-file-atomic.js';

/** The hex sha256 of some bytes (the blob's name). */
export function sha256(content: Buffer | string): string {
  return createHash('sha256').update(content).digest('hex');
}

/** Where the blob with this hash lives. */
export function blobPath(loopDir: string, hash: string): string {
  return join(loopDir, '.journal', 'blobs', hash);
}

/** Store `content` durably and return its sha256; a blob already present is left untouched. */
export async function putBlob(loopDir: string, content: Buffer): Promise<string> {
  const hash = sha256(content);
  const path = blobPath(loopDir, hash);
  try {
    await access(path);
    return hash;
  } catch {
    await mkdir(join(loopDir, '.journal', 'blobs'), { recursive: true });
    await writeFileAtomic(path, content, 0o444);
    return hash;
  }
}

/** The content of a stored blob; throws when it is missing or does not match its hash. */
export async function getBlob(loopDir: string, hash: string): Promise<Buffer> {
  if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error(`"${hash}" is not a blob hash (expected 64 hex digits)`);
  const path = blobPath(loopDir, hash);
  let content: Buffer;
  try {
    content = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(`blob ${hash} is missing from ${join(loopDir, '.journal', 'blobs')}; the journal's backups were removed`, { cause: error });
    }
    throw error;
  }
  if (sha256(content) !== hash) throw new Error(`blob ${path} is corrupt: its content does not match its name`);
  return content;
}
