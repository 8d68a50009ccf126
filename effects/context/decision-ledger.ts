// Appending a commit's decision entry to `.yoke/context/DECISIONS.md`, and taking it out again when
// the commit does not happen (DESIGN §9: no orphan entry).
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { journalEntry } from '../../config/workspace-layout.js';
import { appendDecision } from '../../machines/context/decision-entry.js';
import { DECISIONS_FILE } from '../../machines/context/context-files.js';
import { readOptionalFile } from '../fs/read-optional-file.js';
import { safeKey } from '../fs/safe-key.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';
import { contextLayerExists } from './context-layer-exists.js';

/** A pending entry: put DECISIONS.md back as it was (`undo`), or forget the backup once the commit holds the entry (`settle`). */
export interface PendingDecision {
  undo(): Promise<void>;
  settle(): Promise<void>;
}

/**
 * Append `entry` to DECISIONS.md, after backing up the ledger as it was under
 * `.loop/.journal/decisions/<key>`. Null (and nothing written) when `.yoke/context/` does not
 * exist: yoke never creates the layer by itself. Executed again after a crash, the backup written
 * the first time is the base, so the entry is never appended twice.
 */
export async function appendPendingDecision(root: string, loopDir: string, key: string, entry: string): Promise<PendingDecision | null> {
  if (!contextLayerExists(root)) return null;
  const ledger = join(root, DECISIONS_FILE);
  const backup = backupPath(loopDir, key);
  let before = await readBackup(backup);
  if (before === undefined) {
    const now = await readOptionalFile(ledger);
    before = now === null ? null : now.toString('utf8');
    await mkdir(journalEntry(loopDir, 'decisions'), { recursive: true });
    await writeFileAtomic(backup, JSON.stringify({ before }));
  }
  await writeFileAtomic(ledger, appendDecision(before, entry));
  const previous = before;
  return {
    async undo() {
      if (previous === null) await rm(ledger, { force: true });
      else await writeFileAtomic(ledger, previous);
      await rm(backup, { force: true });
    },
    settle: () => rm(backup, { force: true }),
  };
}

/** Forget the backup of the entry of effect `key` (its commit was found after a crash). */
export async function settleDecision(loopDir: string, key: string): Promise<void> {
  await rm(backupPath(loopDir, key), { force: true });
}

function backupPath(loopDir: string, key: string): string {
  return join(journalEntry(loopDir, 'decisions'), `${safeKey(key)}.json`);
}

/** The backed-up ledger (null = there was none), or undefined when no backup exists. */
async function readBackup(path: string): Promise<string | null | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const { before } = JSON.parse(text) as { before: string | null };
  return before;
}
