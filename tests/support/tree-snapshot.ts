// Byte-exact snapshots of a folder tree, to prove a command changed nothing.
import { createHash } from 'node:crypto';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { join, relative } from 'node:path';

/** Relative path → `file:<sha256>`, `link:<target>` or `dir`, for every entry under `root`. */
export type TreeSnapshot = Record<string, string>;

/** Snapshot `root`, skipping entries whose relative path is in `exclude` (and all below them). */
export async function snapshotTree(root: string, exclude: string[] = []): Promise<TreeSnapshot> {
  const snapshot: TreeSnapshot = {};
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      const abs = join(dir, entry.name);
      const rel = relative(root, abs);
      if (exclude.includes(rel)) continue;
      if (entry.isDirectory()) {
        snapshot[rel] = 'dir';
        await walk(abs);
      } else if (entry.isSymbolicLink()) {
        snapshot[rel] = `link:${await readlink(abs)}`;
      } else {
        snapshot[rel] = `file:${createHash('sha256').update(await readFile(abs)).digest('hex')}`;
      }
    }
  };
  await walk(root);
  return snapshot;
}

/** Every regular file under `root` whose path has no dot-named segment (what an agent reads in .loop/). */
export async function visibleFiles(root: string): Promise<string[]> {
  const files: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const abs = join(dir, entry.name);
      if (entry.isDirectory()) await walk(abs);
      else if (entry.isFile()) files.push(abs);
    }
  };
  await walk(root);
  return files;
}
