// Which project paths a `protect` pattern covers: a file, a folder (`tests/`) or a glob.
//
// Patterns are matched against project-relative posix paths from the root (a pattern with no `/`,
// like `*.test.ts`, matches at the root only; write `**/*.test.ts` for every folder). `*` and `?`
// stay inside one path segment, `**` spans any number of them, `[abc]` is a character class.

/** Does `pattern` contain glob syntax? */
export function isGlob(pattern: string): boolean {
  return /[*?[]/.test(pattern);
}

/**
 * The folder to list to find every path `pattern` can match ('' = the whole project): the leading
 * segments without glob syntax; for a plain path, the path itself (a file or a folder).
 *
 * @example patternBase('tests/**\/*.py') // 'tests'
 * @example patternBase('package.json') // 'package.json'
 */
export function patternBase(pattern: string): string {
  const trimmed = pattern.replace(/\/$/, '');
  if (!isGlob(trimmed)) return trimmed;
  const segments = trimmed.split('/');
  const firstGlob = segments.findIndex(isGlob);
  return segments.slice(0, firstGlob).join('/');
}

const cache = new Map<string, RegExp>();

/** The regular expression a glob compiles to (anchored at both ends). */
export function globRegExp(glob: string): RegExp {
  const known = cache.get(glob);
  if (known) return known;
  let source = '';
  for (let i = 0; i < glob.length; i += 1) {
    const char = glob[i] as string;
    if (char === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      // `**/` = zero or more whole folders; a trailing `**` = anything below.
      source += slash ? '(?:[^/]+/)*' : '.*';
      i += slash ? 2 : 1;
    } else if (char === '*') {
      source += '[^/]*';
    } else if (char === '?') {
      source += '[^/]';
    } else if (char === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end === -1) {
        source += '\\[';
      } else {
        const body = glob.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\');
        source += `[${body}]`;
        i = end;
      }
    } else {
      source += char.replace(/[.+^${}()|\\]/g, '\\$&');
    }
  }
  const regexp = new RegExp(`^${source}$`);
  cache.set(glob, regexp);
  return regexp;
}

/**
 * Does `pattern` cover the file `path`? A folder pattern (`tests/`) covers everything under it; a
 * plain path covers itself and, when it is a folder, everything under it; a glob ending in `/`
 * covers everything under each folder it matches.
 *
 * @example patternCovers('tests/', 'tests/unit/a.test.ts') // true
 * @example patternCovers('**\/*.test.ts', 'src/a.test.ts') // true
 */
export function patternCovers(pattern: string, path: string): boolean {
  const folder = pattern.endsWith('/');
  const body = folder ? pattern.slice(0, -1) : pattern;
  if (!isGlob(body)) return path === body || path.startsWith(`${body}/`);
  if (folder) return globRegExp(`${body}/**`).test(path);
  return globRegExp(body).test(path);
}

/** Does any of `patterns` cover `path`? */
export function patternsCover(patterns: readonly string[], path: string): boolean {
  return patterns.some((pattern) => patternCovers(pattern, path));
}
