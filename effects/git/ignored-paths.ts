// Git-ignored files under protected prefixes (issue 20, item 9): listed so the boundary baseline can
// hash them and every scan can see them change. Only under those prefixes: a big ignored tree
// elsewhere (node_modules) is never walked.
import { gitError, spawnGit } from './run-git.js';

/** `*`, `?`, `[` and `\` are glob syntax in a `:(glob)` pathspec. */
function globEscape(text: string): string {
  return text.replace(/[*?[\\]/g, '\\$&');
}

/**
 * Pathspecs covering every path that starts with one of `prefixes` (yoke's prefixes are plain
 * string prefixes: `src` also covers `src.ts` and `src-old/`): a folder prefix as a literal
 * folder, any other as `<prefix>*` and everything under a folder matching it. The listing is
 * filtered by the exact prefixes afterwards.
 */
export function prefixPathspecs(prefixes: readonly string[]): string[] {
  return prefixes.flatMap((prefix) => (prefix.endsWith('/')
    ? [`:(literal)${prefix}`]
    : [`:(glob)${globEscape(prefix)}*`, `:(glob)${globEscape(prefix)}*/**`]));
}

/**
 * The ignored files under `prefixes` that the index at `indexFile` does not hold (relative, posix,
 * sorted): `git ls-files --others --ignored --exclude-standard`, which applies the project's own
 * ignore rules. Folders git lists instead of their files (a nested repository) are left out: git
 * cannot hash them as files.
 */
export async function ignoredFilesUnder(root: string, prefixes: readonly string[], indexFile: string): Promise<string[]> {
  if (prefixes.length === 0) return [];
  const args = [...LIST_IGNORED, ...prefixPathspecs(prefixes)];
  const result = await spawnGit(root, args, { env: { GIT_INDEX_FILE: indexFile } });
  if (result.exitCode !== 0) throw gitError(root, args, result);
  return filesUnder(result.stdout.split('\0'), prefixes);
}

/** `git ls-files` listing the ignored files not in the index; the pathspecs follow. */
export const LIST_IGNORED = ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--'];

/** The listed paths that are files under one of `prefixes` (exactly, as plain string prefixes), outside .loop/, sorted. */
export function filesUnder(listed: readonly string[], prefixes: readonly string[]): string[] {
  return listed
    .filter((path) => path !== '' && !path.endsWith('/') && !path.startsWith('.loop/') && prefixes.some((prefix) => path.startsWith(prefix)))
    .sort();
}

/** Hash `paths` (files on disk, relative) into the index at `indexFile` (`update-index --add`: literal paths, ignore rules do not apply). */
export async function addToIndex(root: string, paths: readonly string[], indexFile: string): Promise<void> {
  if (paths.length === 0) return;
  const args = ['update-index', '--add', '-z', '--stdin'];
  const result = await spawnGit(root, args, { env: { GIT_INDEX_FILE: indexFile }, input: `${paths.join('\0')}\0` });
  if (result.exitCode !== 0) throw gitError(root, args, result);
}
