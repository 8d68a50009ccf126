// Detects changes to .loop/.journal and .loop/.stash made while an agent ran (DESIGN §6).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Journal } from './journal.js';
import type { WorkspacePaths } from './workspace-paths.js';
import { YokeError } from './yoke-error.js';

/**
 * Fingerprint the stash tree now; the returned function throws a `workspace` error when the
 * journal is no longer exactly what yoke wrote (same file, same size, untouched since yoke's last
 * flush) or the stash tree changed. Records yoke appends meanwhile are accounted for.
 */
export function watchForTampering(paths: WorkspacePaths, journal: Journal): () => void {
  const before = listTree(paths.stashDir);
  return () => {
    if (!journal.untouchedOnDisk()) throw tampered(paths.journal);
    if (listTree(paths.stashDir) !== before) throw tampered(paths.stashDir);
  };
}

function tampered(what: string): YokeError {
  return new YokeError(
    'workspace',
    `${what} was changed while the agent ran; yoke stopped the run to keep its record trustworthy. Nothing yoke wrote is lost: inspect the change, put the folder back, then run \`yoke run\` again.`,
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
