// `.loop/proof/<label>/`: a check writes its evidence into a fresh hidden folder next to it and
// puts that folder in place only when the check has run; a check that could not start, or was
// interrupted, leaves the label's earlier evidence exactly as it was.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Where a workspace's proof folders live. */
export function proofRoot(loopDir: string): string {
  return join(loopDir, 'proof');
}

/** A check's evidence being written. */
export interface ProofFolder {
  /** absolute path of the folder being written */
  dir: string;
  /** the final folder, relative to `.loop/` (`proof/<label>`) */
  relative: string;
  /** Replace the label's folder with this one. */
  commit(): Promise<void>;
  /** Remove this folder; the label's folder stays as it was. */
  discard(): Promise<void>;
}

/** A scratch name that says which process owns it: `.tmp-<label>-<pid>-<hex>` (or `.old-…`). */
function scratchName(kind: 'tmp' | 'old', label: string): string {
  return `.${kind}-${label}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** Create the scratch folder for `label` (after clearing scratch folders of processes that are gone). */
export async function createProofFolder(loopDir: string, label: string): Promise<ProofFolder> {
  const root = proofRoot(loopDir);
  await mkdir(root, { recursive: true });
  await sweepAbandoned(root);
  const dir = join(root, scratchName('tmp', label));
  await mkdir(dir);
  const final = join(root, label);
  return {
    dir,
    relative: `proof/${label}`,
    async commit() {
      // rename(2) cannot replace a non-empty folder: move the old one aside first, then drop it.
      const old = join(root, scratchName('old', label));
      const existed = await stat(final).then(() => true, () => false);
      if (existed) await rename(final, old);
      await rename(dir, final);
      if (existed) await rm(old, { recursive: true, force: true });
    },
    discard: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * Clear the scratch folders of checks that are no longer running (killed mid-way). An `.old-*`
 * folder whose label has no folder (killed between the two renames) is put back instead.
 */
async function sweepAbandoned(root: string): Promise<void> {
  for (const name of await readdir(root)) {
    const match = /^\.(tmp|old)-(.+)-(\d+)-[0-9a-f]{8}$/.exec(name);
    if (match === null || isRunning(Number(match[3]))) continue;
    const [, kind, label = ''] = match;
    const final = join(root, label);
    if (kind === 'old' && !(await stat(final).then(() => true, () => false))) await rename(join(root, name), final);
    else await rm(join(root, name), { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
