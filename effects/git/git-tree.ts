// Snapshotting the project outside `.loop/` as a git tree, and listing what changed since, without
// touching the user's index.
import { rm } from 'node:fs/promises';
import { boundaryIndex, copyRealIndex, keepBoundaryIndex, noteBoundaryIndex, temporaryIndex } from './boundary-index.js';
import { parseHead, REV_PARSE_HEAD, type HeadState } from './head-state.js';
import { addToIndex, filesUnder, ignoredFilesUnder, LIST_IGNORED, prefixPathspecs } from './ignored-paths.js';
import { gitError, runGit, spawnGit, spawnGitScript } from './run-git.js';

/**
 * A git tree id of the working directory: tracked and untracked non-ignored files as they are on
 * disk now, except that `.loop/` is not re-scanned (its entries are whatever the real index has;
 * `changedSince` leaves `.loop/` out). Works on a copy of the real index (so unchanged files are
 * not re-hashed and the user's staging area is never modified) and in a repository with no commits
 * yet. That index is then kept as the boundary cache for the tree (see boundary-index.ts).
 *
 * Git-ignored files under `ignoredUnder` (the `no-modify` prefixes) are hashed into the tree too:
 * in the boundary index they are entries like any other, so `changedSince` sees them modified or
 * deleted, and it lists new ignored files under the same prefixes.
 */
export async function captureWorkTree(root: string, ignoredUnder: readonly string[] = []): Promise<string> {
  const temporary = await temporaryIndex(root);
  try {
    const tree = await writeWorkTree(root, temporary, ignoredUnder);
    await keepBoundaryIndex(root, tree, temporary);
    return tree;
  } finally {
    await rm(temporary, { force: true });
  }
}

/**
 * The same tree id as `captureWorkTree`, computed in a private temporary index that is removed
 * afterwards: yoke's boundary cache is neither used nor changed, so this is safe while a run
 * works in the same project (`yoke check` hashes the source tree this way).
 */
export async function snapshotWorkTree(root: string): Promise<string> {
  const temporary = await temporaryIndex(root, 'snapshot');
  try {
    return await writeWorkTree(root, temporary);
  } finally {
    await rm(temporary, { force: true });
  }
}

/**
 * Fill `index` with the working directory outside .loop/ (starting from the real index), plus the
 * git-ignored files under `ignoredUnder`, and write its tree.
 */
async function writeWorkTree(root: string, index: string, ignoredUnder: readonly string[] = []): Promise<string> {
  const env = { GIT_INDEX_FILE: index };
  await copyRealIndex(root, index);
  // Entries under .loop/ copied from the real index (yoke commits notes.md and friends) stay in
  // the tree as they were; `changedSince` leaves .loop/ out of the comparison.
  await runGit(root, ['-c', 'advice.addEmbeddedRepo=false', 'add', '-A', '--', '.', ':(exclude).loop'], { env });
  await addToIndex(root, await ignoredFilesUnder(root, ignoredUnder, index), index);
  return (await runGit(root, ['write-tree'], { env })).trim();
}

/** `git status` of an index holding the baseline: only the index-vs-disk side and untracked files matter. */
const STATUS_ARGS = [
  'status', '--porcelain=v2', '-z', '--untracked-files=all', '--no-renames',
  // a submodule counts when its checked-out commit moved (what `git add` records), not for edits inside it
  '--ignore-submodules=dirty',
  '--', '.', ':(exclude).loop',
];

/** What one boundary scan saw: the changed paths, and HEAD when asked (null also when HEAD names an unborn branch). */
export interface WorkTreeScan {
  changed: string[];
  head: HeadState | null;
}

/**
 * The status, then (`$1` = 1) HEAD's commit and ref, then (when pathspecs follow) the ignored files
 * there that the index does not hold: one `sh` started by yoke instead of three git processes
 * (issue #7). Sections are told apart by NUL-delimited markers no status entry can be (every
 * entry starts with its kind and a space).
 */
const SCAN_SCRIPT = `want_head=$1; shift
git ${STATUS_ARGS.map((arg) => `'${arg}'`).join(' ')} || exit 125
if [ "$want_head" = 1 ]; then printf '\\0yoke:head\\0'; git ${REV_PARSE_HEAD.join(' ')} 2>/dev/null | tr '\\n' '\\0'; fi
if [ $# -gt 0 ]; then printf '\\0yoke:ignored\\0'; git ${LIST_IGNORED.join(' ')} "$@" || exit 126; fi
exit 0`;

/**
 * Project paths outside `.loop/` (relative, posix, sorted, unique) that differ between `tree` and the
 * working directory now: modified, type-changed, deleted, and added (untracked, not ignored).
 * Renames count as a deletion plus an addition. One `git status` against an index holding exactly
 * `tree` (porcelain v2: stable across git versions and user settings). With `ignoredUnder` (the
 * prefixes `captureWorkTree` hashed ignored files under), ignored files there that are not in the
 * tree count as added. With `head`, HEAD's commit and branch are read in the same process.
 */
export async function scanWorkTree(root: string, tree: string, opts: { ignoredUnder?: readonly string[]; head?: boolean } = {}): Promise<WorkTreeScan> {
  const index = await boundaryIndex(root, tree);
  const env = { GIT_INDEX_FILE: index };
  const ignoredUnder = opts.ignoredUnder ?? [];
  if (ignoredUnder.length === 0 && opts.head !== true) {
    const result = await spawnGit(root, STATUS_ARGS, { env });
    if (result.exitCode !== 0) throw gitError(root, STATUS_ARGS, result);
    await noteBoundaryIndex(index);
    return { changed: changedPaths(result.stdout), head: null };
  }
  const result = await spawnGitScript(root, SCAN_SCRIPT, [opts.head === true ? '1' : '0', ...prefixPathspecs(ignoredUnder)], { env });
  if (result.exitCode !== 0) throw gitError(root, result.exitCode === 126 ? LIST_IGNORED : STATUS_ARGS, result);
  await noteBoundaryIndex(index);
  const fields = result.stdout.split('\0');
  const headAt = fields.indexOf('yoke:head');
  const ignoredAt = fields.indexOf('yoke:ignored');
  const statusEnd = [headAt, ignoredAt].filter((at) => at >= 0).reduce((a, b) => Math.min(a, b), fields.length);
  const changed = changedPaths(fields.slice(0, statusEnd).join('\0'));
  const added = ignoredAt < 0 ? [] : filesUnder(fields.slice(ignoredAt + 1), ignoredUnder);
  return {
    changed: added.length === 0 ? changed : [...new Set([...changed, ...added])].sort(),
    head: headAt < 0 ? null : parseHead(fields[headAt + 1] ?? '', fields[headAt + 2] ?? ''),
  };
}

/** The changed paths of {@link scanWorkTree}. */
export async function changedSince(root: string, tree: string, ignoredUnder: readonly string[] = []): Promise<string[]> {
  return (await scanWorkTree(root, tree, { ignoredUnder })).changed;
}

/**
 * The paths a `status --porcelain=v2 -z` lists as different on disk from the index: ordinary (`1`)
 * and renamed (`2`) entries whose worktree column is not `.`, unmerged (`u`) and untracked (`?`)
 * entries. The first column (HEAD vs index) is ignored: HEAD is not the baseline. An untracked
 * nested repository is listed as `dir/`; `git add` records it as `dir`, and so does this.
 */
export function changedPaths(porcelain: string): string[] {
  const fields = porcelain.split('\0');
  const paths = new Set<string>();
  for (let i = 0; i < fields.length; i += 1) {
    const entry = fields[i] ?? '';
    if (entry === '') continue;
    const kind = entry[0];
    if (kind === '?') {
      paths.add(entry.slice(2).replace(/\/$/, ''));
    } else if (kind === '1' || kind === '2') {
      // `1 XY sub mH mI mW hH hI path` and `2 XY sub mH mI mW hH hI Xscore path` + NUL + origPath
      const parts = entry.split(' ');
      const path = parts.slice(kind === '1' ? 8 : 9).join(' ');
      if (entry[3] !== '.') paths.add(path);
      if (kind === '2') i += 1;
    } else if (kind === 'u') {
      paths.add(entry.split(' ').slice(10).join(' '));
    }
  }
  return [...paths].sort();
}
