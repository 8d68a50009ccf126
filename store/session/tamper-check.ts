// Detects changes to yoke's own files (.loop/.journal, .loop/.stash) made while an agent ran (DESIGN §6).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Journal } from '../journal/file/journal.js';
import { readLock } from '../journal/file/workspace-lock.js';
import type { WorkspacePaths } from './workspace-paths.js';
import { YokeError } from '../../errors/yoke-error.js';

/**
 * Fingerprint yoke's private folders now; the returned function throws a `workspace` error when,
 * since then, the journal is no longer exactly what yoke wrote, the lock no longer names this
 * process, or the spec backups (`.journal/blobs/`) or the stash changed. Files the agent call itself
 * legitimately produces (its transcript, its usage file, hook logs) are not part of the fingerprint.
 *
 * When the journal was deleted, replaced or edited, yoke's own copy is put back first (the foreign
 * version is kept next to it), so nothing yoke wrote is lost.
 */
export function watchForTampering(paths: WorkspacePaths, journal: Journal): () => void {
  const blobs = join(paths.journalDir, 'blobs');
  const before = { blobs: listTree(blobs), stash: listTree(paths.stashDir) };
  return () => {
    if (!journal.untouchedOnDisk()) {
      const { tamperedCopy } = journal.rescue();
      const kept = tamperedCopy ? `; the changed version is kept as ${tamperedCopy}` : '';
      throw tampered(paths.journal, `yoke put its own journal back: nothing yoke wrote is lost${kept}`);
    }
    const owner = readLock(paths.lock);
    if (!owner || owner.pid !== process.pid) throw tampered(paths.lock, 'the lock no longer names this run');
    if (listTree(blobs) !== before.blobs) throw tampered(blobs, 'the spec-file backups changed');
    if (listTree(paths.stashDir) !== before.stash) throw tampered(paths.stashDir, 'the stash changed');
  };
}

function tampered(what: string, detail: string): YokeError {
  return new YokeError(
    'workspace',
    `${what} was changed while the agent ran (${detail}); yoke stopped the run so its record stays trustworthy. Inspect the change, then run \`yoke run\` again.`,
  );
}

/** Names, sizes and modification times of every entry under `dir` (empty when absent). */
function listTree(dir: string, prefix = ''): string {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return '';
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
