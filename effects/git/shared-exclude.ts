// Adding patterns to a repository's own exclude file (`<git common dir>/info/exclude`): shared by
// every worktree of the repository, never committed, and read by every git command as `.gitignore` is.
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { runGit } from './run-git.js';

/** The header line yoke writes above the patterns it adds, once. */
const HEADER = '# yoke: parallel lanes link the main tree\'s dependency folders (docs/parallel.md#where-lanes-work)';

/**
 * Append each of `patterns` that is not a line of the exclude file of the repository at `root`
 * already; returns the ones added. The user's lines are kept as they are; the new ones are written
 * in one append (a git reading the file meanwhile sees it whole, before or after). Callers changing
 * the same repository at once must take turns (two could both add a line).
 */
export async function addSharedExcludes(root: string, patterns: readonly string[]): Promise<string[]> {
  const file = join(resolve(root, (await runGit(root, ['rev-parse', '--git-common-dir'])).trim()), 'info', 'exclude');
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  const lines = new Set(text.split('\n').map((line) => line.trim()));
  const added = patterns.filter((pattern) => !lines.has(pattern));
  if (added.length === 0) return [];
  const lead = text === '' || text.endsWith('\n') ? '' : '\n';
  const header = lines.has(HEADER) ? '' : `${HEADER}\n`;
  await mkdir(dirname(file), { recursive: true });
  await appendFile(file, `${lead}${header}${added.join('\n')}\n`);
  return added;
}
