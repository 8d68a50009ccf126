// Putting PROJECT.md and DECISIONS.md back after an agent call changed them (DESIGN §9: they are yoke's during a run).
import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CONTEXT_DIR } from '../../machines/context/context-files.js';
import { getBlob, putBlob } from '../fs/blob-store.js';
import { readOptionalFile } from '../fs/read-optional-file.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';

/** What a restore did: the files it put back (sorted) and the blobs of what the agent had left there. */
export interface ContextRestore {
  restored: string[];
  displaced: Record<string, string>;
}

/**
 * Make each protected file under `<root>/.yoke/context/` equal its blob again (remove it when it
 * was absent). What the agent wrote is kept as a blob first, so nothing is lost. Idempotent.
 */
export async function restoreContextFiles(root: string, loopDir: string, protect: Readonly<Record<string, string | null>>): Promise<ContextRestore> {
  const restored: string[] = [];
  const displaced: Record<string, string> = {};
  for (const [name, hash] of Object.entries(protect)) {
    const path = join(root, CONTEXT_DIR, name);
    const current = await readOptionalFile(path);
    const wanted = hash === null ? null : await getBlob(loopDir, hash);
    if (current === null && wanted === null) continue;
    if (current !== null && wanted !== null && current.equals(wanted)) continue;
    if (current !== null) displaced[name] = await putBlob(loopDir, current);
    if (wanted === null) {
      await rm(path, { force: true });
    } else {
      const mode = current === null ? undefined : (await stat(path)).mode & 0o7777;
      await mkdir(dirname(path), { recursive: true });
      await writeFileAtomic(path, wanted, mode);
    }
    restored.push(name);
  }
  return { restored: restored.sort(), displaced };
}
