// Putting PROJECT.md and DECISIONS.md back after an agent call changed them (DESIGN §9: they are yoke's during a run).
import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CONTEXT_DIR } from '../../machines/context/context-files.js';
import { getBlob, sha256 } from '../fs/blob-store.js';
import { readOptionalFile } from '../fs/read-optional-file.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';

/** What a restore did: the files it put back (sorted) and the sha256 of what the agent had left there. */
export interface ContextRestore {
  restored: string[];
  displaced: Record<string, string>;
}

/**
 * Make each protected file under `<root>/.yoke/context/` equal its blob again (remove it when it
 * was absent). `displaced` names the sha256 of what the agent wrote. Idempotent.
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
    // Only the digest: the call's tamper check forbids new blobs while the agent's call is open.
    if (current !== null) displaced[name] = sha256(current);
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
