// An emptied journal must not silently forget a workspace's history (issue 20, item 7).
import { existsSync, readdirSync } from 'node:fs';
import { blobMirrorDir } from '../../effects/fs/blob-store.js';
import { journalEntry } from '../../config/workspace-layout.js';
import { YokeError } from '../../errors/yoke-error.js';
import type { WorkspacePaths } from './workspace-paths.js';

/**
 * What says this workspace has run here before: agent transcripts, content blobs, a status view,
 * the blob copy in `.git/yoke/blobs/`. Each as a short phrase for a message; [] when there is none.
 * Only what a run leaves on this machine counts: commits with a `Yoke-Run:` trailer travel with
 * every `git clone`, where no journal ever was.
 */
export function historyEvidence(paths: WorkspacePaths): string[] {
  const evidence: string[] = [];
  const count = (dir: string | null): number => (dir !== null && existsSync(dir) ? readdirSync(dir).length : 0);
  const transcripts = count(journalEntry(paths.loopDir, 'transcripts'));
  if (transcripts > 0) evidence.push(`${transcripts} agent transcript(s)`);
  const blobs = count(journalEntry(paths.loopDir, 'blobs'));
  if (blobs > 0) evidence.push(`${blobs} blob(s)`);
  if (existsSync(journalEntry(paths.loopDir, 'status'))) evidence.push('status.json');
  const mirrored = count(blobMirrorDir(paths.loopDir));
  if (mirrored > 0) evidence.push(`${mirrored} blob(s) in .git/yoke/blobs`);
  return evidence;
}

/**
 * Refuse (exit 3) to start on a journal with no records while the workspace shows it has run
 * before: the journal was emptied or removed, and a new run would read that as "no runs yet".
 * `discard` (`yoke run --fresh --discard-history`) is the user starting over on purpose.
 */
export function refuseLostHistory(paths: WorkspacePaths, records: readonly unknown[], discard: boolean): void {
  if (records.length > 0 || discard) return;
  const evidence = historyEvidence(paths);
  if (evidence.length === 0) return;
  throw new YokeError(
    'workspace',
    `${paths.journal} has no records, but this workspace has run before (${evidence.join(', ')}): the journal was emptied or removed, and a new run would silently forget that history. Put back a copy of the journal, or start over deliberately with \`yoke run --fresh --discard-history\`.`,
  );
}
