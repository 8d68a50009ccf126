// Reads the path prefix of an `allow` / `no-modify` line into its normal project-relative form.
//
// Prefixes are compared as plain strings against project-relative paths, so the normal form
// matters: `./src//x` and `src/./x` both become `src/x`, and a trailing `/` is kept because
// `src/` (the folder) and `src` (also `src.ts`, `src-old/`) are different prefixes.
import { parsed, rejected, type ParsedValue } from './parsed-value.js';

/** The normalized prefix, or why it cannot be a boundary prefix (absolute, `..`, `.loop/`, glob, whole project). */
export function parsePathPrefix(text: string): ParsedValue<string> {
  if (text.startsWith('/') || /^[A-Za-z]:[\\/]/.test(text)) {
    return rejected(`\`${text}\` is an absolute path`, 'write the path relative to the project root, like src/');
  }
  if (text.startsWith('~')) {
    return rejected(`\`${text}\` starts with \`~\`, which is not expanded`, 'write the path relative to the project root, like src/');
  }
  if (text.includes('*')) {
    return rejected(`\`${text}\` contains \`*\`, but boundaries are path prefixes, not globs`, 'write the folder or file prefix, like src/ or src/main.ts');
  }
  const segments = text.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) {
    return rejected(`\`${text}\` contains a \`..\` segment`, 'write a path inside the project without `..`');
  }
  if (segments.length === 0) {
    return rejected(`\`${text}\` covers the whole project`, 'name a folder or file, like src/; with no `allow` line everything outside `no-modify` is allowed');
  }
  if (segments[0] === '.loop') {
    return rejected(`\`${text}\` points into .loop/, which the boundary does not cover`, 'remove this line; .loop/ is protected by the spec restore');
  }
  const trailing = /\/\.?$/.test(text) ? '/' : '';
  return parsed(segments.join('/') + trailing);
}
