// The rules that keep a restore inside `.loop/`: safe paths, a well-formed tree, links that stay in.
import { topName, type StashEntry } from './stash-entry.js';

/**
 * Why a symbolic link at `linkPath` (relative to `.loop/`) with this target is unsafe, or null.
 * A target must be relative, and read from the link's folder it must stay inside `.loop/`; `..`
 * may only lead the target (`../plan.md`), never follow a name (`a/../..`), because through other
 * links such a target can resolve elsewhere than it reads.
 */
export function linkTargetProblem(linkPath: string, target: string): string | null {
  if (target === '') return 'its target is empty';
  if (target.includes('\0')) return 'its target contains a NUL byte';
  if (target.startsWith('/')) return `it points to the absolute path ${target}`;
  let depth = linkPath.split('/').length - 1;
  let named = false;
  for (const segment of target.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment !== '..') {
      named = true;
      continue;
    }
    if (named) return `its target ${target} has \`..\` after a folder name`;
    depth -= 1;
    if (depth < 0) return `it points outside .loop/ (${target})`;
  }
  return null;
}

/** Why a manifest path is unsafe to create under `.loop/`, or null. */
export function entryPathProblem(path: string, allowDotTop: readonly string[] = []): string | null {
  if (path.includes('\0')) return 'it contains a NUL byte';
  if (path.startsWith('/')) return 'it is absolute';
  const segments = path.split('/');
  for (const segment of segments) {
    if (segment === '') return 'it has an empty path segment';
    if (segment === '.' || segment === '..') return `it contains \`${segment}\``;
  }
  const top = segments[0] ?? '';
  if (top.startsWith('.') && !allowDotTop.includes(path)) return 'it would replace a dotfile entry of .loop/ (yoke never restores those)';
  return null;
}

/**
 * The first problem that makes `entries` unsafe to materialize, as `path: why`, or null. Besides
 * each path and link target, every nested entry must sit in a folder of the same manifest (never
 * under a file or a link) and no path may appear twice.
 */
export function manifestProblem(entries: readonly StashEntry[], allowDotTop: readonly string[] = []): string | null {
  const types = new Map<string, StashEntry['type']>();
  for (const entry of entries) {
    const pathIssue = entryPathProblem(entry.path, allowDotTop);
    if (pathIssue) return `${entry.path}: ${pathIssue}`;
    if (types.has(entry.path)) return `${entry.path}: it appears twice`;
    types.set(entry.path, entry.type);
  }
  for (const entry of entries) {
    const slash = entry.path.lastIndexOf('/');
    if (slash !== -1 && types.get(entry.path.slice(0, slash)) !== 'dir') {
      return `${entry.path}: its folder ${entry.path.slice(0, slash)} is not a folder of the same snapshot`;
    }
    if (entry.type === 'symlink') {
      const linkIssue = linkTargetProblem(entry.path, entry.target);
      if (linkIssue) return `${entry.path}: ${linkIssue}`;
    }
  }
  return null;
}

/** The distinct names directly in `.loop/` that `entries` occupy, in manifest order. */
export function topNames(entries: readonly StashEntry[]): string[] {
  return [...new Set(entries.map((entry) => topName(entry.path)))];
}
