// Resolves a path as a shell or a tool would (relative to a cwd, `~` to home) and normalizes it.
//
// Pure string work on posix paths: symlinks are not followed (that would need the file system).

/** Collapses `.`, `..` and repeated `/` of an absolute path (`..` above `/` stays at `/`). */
export function normalizeAbsolute(path: string): string {
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return `/${out.join('/')}`;
}

/**
 * The absolute, normalized form of `path` as seen from `cwd`. `~` and `~/…` use `home`; with no
 * home they stay `~/…` (normalized), which no project contains. `~user/…` is kept as written.
 * @example resolvePath('/p/src', '../.git/hooks//x', undefined) // '/p/.git/hooks/x'
 */
export function resolvePath(cwd: string, path: string, home: string | undefined): string {
  if (path === '~' || path.startsWith('~/')) {
    const rest = path.slice(1);
    if (home !== undefined) return normalizeAbsolute(home + rest);
    return `~${normalizeAbsolute(rest === '' ? '/' : rest)}`.replace(/^~\/$/, '~');
  }
  if (path.startsWith('~')) return path;
  if (path.startsWith('/')) return normalizeAbsolute(path);
  return normalizeAbsolute(`${cwd}/${path}`);
}

/** `abs` relative to `root` (`.` for the root itself), or null when it lies outside. */
export function projectRelative(abs: string, root: string): string | null {
  const base = normalizeAbsolute(root);
  if (abs === base) return '.';
  const prefix = base === '/' ? '/' : `${base}/`;
  return abs.startsWith(prefix) ? abs.slice(prefix.length) : null;
}

/** How a path is shown in findings: project-relative inside the project, absolute outside it. */
export function displayPath(abs: string, root: string): string {
  return projectRelative(abs, root) ?? abs;
}
