// Matches paths against glob patterns: the shell's (`*`, `?`, `[…]`) and `protect` globs (`**` too).
//
// The pattern is turned into a RegExp once per call; this is pattern matching of a path against a
// glob, not a look at raw shell text.

/** Whether a word has an unquoted glob character, so the shell would expand it. */
export function hasGlob(text: string): boolean {
  return /[*?[]/.test(text);
}

function escapeRegExp(char: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(char) ? `\\${char}` : char;
}

/** A bracket expression starting at `pattern[start]` (`[`), as a RegExp class and its end index. */
function bracket(pattern: string, start: number): { source: string; end: number } | null {
  let i = start + 1;
  let negate = false;
  if (pattern[i] === '!' || pattern[i] === '^') { negate = true; i += 1; }
  let body = '';
  if (pattern[i] === ']') { body += '\\]'; i += 1; }
  for (; i < pattern.length; i += 1) {
    const char = pattern[i] ?? '';
    if (char === ']') return { source: `[${negate ? '^' : ''}${body}]`, end: i };
    if (char === '/') return null;
    body += char === '\\' || char === '^' ? `\\${char}` : char;
  }
  return null;
}

/**
 * Whether `path` matches `pattern`. `*` and `?` never cross `/`; `**` as a whole segment spans any
 * number of segments. With `shell`, patterns read as bash reads them without `dotglob` and
 * `globstar`: a leading `.` of a name is matched only by a literal `.`, and `**` is `*`.
 * @example globMatches('.claude/*.json', '.claude/settings.json', true) // true
 */
export function globMatches(pattern: string, path: string, shell: boolean): boolean {
  let source = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern[i] ?? '';
    const atNameStart = i === 0 || pattern[i - 1] === '/';
    const noDot = shell && atNameStart ? '(?!\\.)' : '';
    if (!shell && char === '*' && pattern[i + 1] === '*' && atNameStart && (pattern[i + 2] === '/' || i + 2 === pattern.length)) {
      source += pattern[i + 2] === '/' ? '(?:[^/]*/)*' : '.*';
      i += pattern[i + 2] === '/' ? 2 : 1;
    } else if (char === '*') source += `${noDot}[^/]*`;
    else if (char === '?') source += `${noDot}[^/]`;
    else if (char === '[') {
      const found = bracket(pattern, i);
      if (found === null) source += '\\[';
      else { source += noDot + found.source; i = found.end; }
    } else source += escapeRegExp(char);
  }
  return new RegExp(`^${source}$`).test(path);
}
