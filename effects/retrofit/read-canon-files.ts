// Reads a canon folder (canon/ or one being written) into the plain data validateCanon checks.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CanonFiles } from '../../machines/retrofit/canon.js';

/** Every file under `dir` as text, by its path relative to `dir`; the folders under skills/. */
export async function readCanonFiles(dir: string): Promise<CanonFiles> {
  const files = new Map<string, string>();
  const walk = async (relative: string): Promise<void> => {
    const entries = await readdir(join(dir, relative), { withFileTypes: true });
    for (const entry of entries) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile() && /\.(md|ya?ml|toml|json)$/.test(entry.name)) files.set(path, await readFile(join(dir, path), 'utf8'));
    }
  };
  await walk('');
  let skillFolders: string[] = [];
  try {
    skillFolders = (await readdir(join(dir, 'skills'), { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return { files, skillFolders };
}
