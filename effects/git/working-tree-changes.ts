// What `git status` shows in a working tree: the changes that make a parallel run's target dirty.
import { runGit } from './run-git.js';

/**
 * The paths git reports as changed, staged or untracked in `root` (porcelain v1, renames as their
 * new path). Untracked files under `.loop/` are yoke's working files (notes, guard results) and are
 * left out; a tracked `.loop/` file that changed counts, because integration fast-forwards over it.
 */
export async function workingTreeChanges(root: string): Promise<string[]> {
  const out = await runGit(root, ['status', '--porcelain', '-z']);
  const entries = out.split('\0').filter((entry) => entry.length > 0);
  const paths: string[] = [];
  for (let i = 0; i < entries.length; i += 1) {
    const entry = entries[i] ?? '';
    const status = entry.slice(0, 2);
    const path = entry.slice(3);
    // `R`/`C` entries are followed by their source path
    if (status.startsWith('R') || status.startsWith('C')) i += 1;
    if (status === '??' && path.startsWith('.loop/')) continue;
    paths.push(path);
  }
  return paths;
}
