// Reads one `protect` argument into its normal project-relative form: a path, a folder (`tests/`)
// or a glob (`**/*.test.ts`). Anything that could name a file outside the project is refused here,
// before anything runs; a symlink that escapes is found when the files are listed.
import { parsed, rejected, type ParsedValue } from './parsed-value.js';

/** The normalized pattern (quotes removed, `./` and repeated `/` dropped, a folder's trailing `/` kept), or why it cannot be one. */
export function parseProtectPattern(raw: string): ParsedValue<string> {
  const text = /^(["']).*\1$/.test(raw) && raw.length >= 2 ? raw.slice(1, -1) : raw;
  const hint = 'protect paths inside the project, relative to its root, like `protect tests/` or `protect "**/*.test.ts"`';
  if (text.startsWith('/') || /^[A-Za-z]:[\\/]/.test(text)) return rejected(`\`${text}\` is an absolute path, outside what yoke may protect`, hint);
  if (text.startsWith('~')) return rejected(`\`${text}\` starts with \`~\`, which is not expanded`, hint);
  if (text.includes('\\')) return rejected(`\`${text}\` contains \`\\\``, 'separate folders with `/`');
  const segments = text.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) return rejected(`\`${text}\` contains a \`..\` segment, which leaves the project`, hint);
  if (segments.length === 0) return rejected(`\`${text}\` names the whole project`, 'name the files that decide "done": tests, check scripts, package.json, CI configs');
  if (segments[0] === '.git') return rejected(`\`${text}\` points into .git/`, 'yoke does not protect git\'s own folder; protect your hook sources (e.g. `.husky/`) instead');
  if (segments[0] === '.loop') return rejected(`\`${text}\` points into .loop/, yoke's workspace`, 'remove it: the spec files in .loop/ are restored before every iteration anyway');
  const trailing = /\/\.?$/.test(text) ? '/' : '';
  return parsed(segments.join('/') + trailing);
}
