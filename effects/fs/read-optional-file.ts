// Reading a file that may legitimately be absent.
import { readFile } from 'node:fs/promises';

/** The file's bytes, or null when it does not exist. Any other error (a directory, no permission) is thrown. */
export async function readOptionalFile(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
