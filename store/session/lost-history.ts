// An emptied journal must not silently forget a workspace's history (issue 20, item 7).
import { existsSync, readdirSync } from 'node:fs';
import { spawnGit } from '../../effects/git/run-git.js';
import { journalEntry } from '../../config/workspace-layout.js';
import { YokeError } from '../../errors/yoke-error.js';
import type { WorkspacePaths } from './workspace-paths.js';

/**
 * What says this workspace has run before: agent transcripts, content blobs, a status view, commits
 * with a `Yoke-Run:` trailer. Each as a short phrase for a message; [] when there is none.
 */
export async function historyEvidence(paths: WorkspacePaths): Promise<string[]> {
  const evidence: string[] = [];
  const count = (entry: 'transcripts' | 'blobs'): number => {
    const dir = journalEntry(paths.loopDir, entry);
    return existsSync(dir) ? readdirSync(dir).length : 0;
  };
  const transcripts = count('transcripts');
  if (transcripts > 0) evidence.push(`${transcripts} agent transcript(s)`);
  const blobs = count('blobs');
  if (blobs > 0) evidence.push(`${blobs} blob(s)`);
  if (existsSync(journalEntry(paths.loopDir, 'status'))) evidence.push('status.json');
  const commits = await spawnGit(paths.root, ['log', '--all', '-1', '--format=%h', '--grep=^Yoke-Run: ']);
  const sha = commits.exitCode === 0 ? commits.stdout.trim() : '';
  if (sha !== '') evidence.push(`Yoke-Run commits (latest ${sha})`);
  return evidence;
}

/**
 * Refuse (exit 3) to start on a journal with no records while the workspace shows it has run
 * before: the journal was emptied or removed, and a new run would read that as "no runs yet".
 * `discard` (`yoke run --fresh --discard-history`) is the user starting over on purpose.
 */
export async function refuseLostHistory(paths: WorkspacePaths, records: readonly unknown[], discard: boolean): Promise<void> {
  if (records.length > 0 || discard) return;
  const evidence = await historyEvidence(paths);
  if (evidence.length === 0) return;
  throw new YokeError(
    'workspace',
    `${paths.journal} has no records, but this workspace has run before (${evidence.join(', ')}): the journal was emptied or removed, and a new run would silently forget that history. Put back a copy of the journal, or start over deliberately with \`yoke run --fresh --discard-history\`.`,
  );
}
