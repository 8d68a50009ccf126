// Detects changes to yoke's own files (the journal, .journal/blobs, .loop/.stash) made while an agent ran (DESIGN §6).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { journalEntry } from '../../config/workspace-layout.js';
import type { HeldLease } from '../journal/journal-store.js';
import type { JournalWriter } from '../journal/journal-writer.js';
import type { WorkspacePaths } from './workspace-paths.js';
import { YokeError } from '../../errors/yoke-error.js';

/**
 * Fingerprint yoke's private files now; the returned check rejects with a `workspace` error when,
 * since then, the journal is no longer exactly what yoke wrote (the store's integrity check), the
 * lease no longer names this process, or the spec backups (`.journal/blobs/`) or the stash changed.
 * Files the agent call itself legitimately produces (its transcript, its usage file, hook logs) are
 * not part of the fingerprint.
 *
 * When the journal was deleted, replaced or edited, yoke's own copy is put back first (the foreign
 * version is kept next to it), so nothing yoke wrote is lost.
 */
export function watchForTampering(paths: WorkspacePaths, journal: JournalWriter, lease: HeldLease, options: { blobs: boolean } = { blobs: true }): Promise<() => Promise<void>> {
  const blobs = journalEntry(paths.loopDir, 'blobs');
  // Parallel lanes (options.blobs false): other lanes' own effects add backups while this call runs,
  // so the backups cannot be fingerprinted around one call; the journal, the lease and the stash can.
  const before = { blobs: options.blobs ? listTree(blobs) : '', stash: listTree(paths.stashDir) };
  return Promise.resolve(async () => {
    // A lease that expires (a shared store) and is no longer this run's lapsed, and another yoke may
    // have taken the workspace over (and finished): the journal is not this run's to put back. Stop.
    if (lease.holder.expiresAt !== undefined && !(await lease.held())) {
      throw tampered(journal.store.lease.location, 'the lease lapsed and may have been taken over, so this run stops and leaves the journal as it is');
    }
    if (!(await journal.untouched())) {
      const { keptAs } = await journal.rescue();
      const kept = keptAs ? `; the changed version is kept as ${keptAs}` : '';
      throw tampered(journal.store.location, `yoke put its own journal back: nothing yoke wrote is lost${kept}`);
    }
    if (!(await lease.held())) throw tampered(journal.store.lease.location, 'the lock no longer names this run');
    if (options.blobs && listTree(blobs) !== before.blobs) throw tampered(blobs, 'the spec-file backups changed');
    if (listTree(paths.stashDir) !== before.stash) throw tampered(paths.stashDir, 'the stash changed');
  });
}

function tampered(what: string, detail: string): YokeError {
  return new YokeError(
    'workspace',
    `${what} was changed while the agent ran (${detail}); yoke stopped the run so its record stays trustworthy. Inspect the change, then run \`yoke run\` again.`,
  );
}

/** Names, sizes and modification times of every entry under `dir` (empty when absent, a marker when unreadable). */
function listTree(dir: string, prefix = ''): string {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    // Absent (no backups, no stash yet) lists as empty. Anything else (a file in its place, no
    // permission) becomes part of the fingerprint, so a change to it is seen as the change it is.
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? '' : `(unreadable: ${code ?? String(error)})`;
  }
  const lines: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    const stats = statSync(path, { throwIfNoEntry: false });
    lines.push(`${prefix}${entry.name} ${stats?.size ?? '-'} ${stats?.mtimeMs ?? '-'}`);
    if (entry.isDirectory()) lines.push(listTree(path, `${prefix}${entry.name}/`));
  }
  return lines.join('\n');
}
