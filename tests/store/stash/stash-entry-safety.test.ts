// store/stash/stash-entry-safety.ts: what may be restored under .loop/.
import { describe, expect, it } from 'vitest';
import { entryPathProblem, linkTargetProblem, manifestProblem, topNames } from '../../../store/stash/stash-entry-safety.js';
import type { StashEntry } from '../../../store/stash/stash-entry.js';

const file = (path: string): StashEntry => ({ path, type: 'file', mode: 0o644, size: 0, blob: 'e'.repeat(64) });
const dir = (path: string): StashEntry => ({ path, type: 'dir', mode: 0o755 });
const link = (path: string, target: string): StashEntry => ({ path, type: 'symlink', target });

describe('linkTargetProblem', () => {
  it.each([
    ['a', 'plan.md'], ['a', './plan.md'], ['sub/a', '../plan.md'], ['sub/deep/a', '../../x/y'], ['sub/a', '..'], ['a', '.'], ['a', 'missing/file'], ['a', '.journal/journal.jsonl'],
  ])('allows %s -> %s', (path, target) => {
    expect(linkTargetProblem(path, target)).toBeNull();
  });

  it.each([
    ['a', '/etc/passwd', /absolute path/],
    ['a', '../outside', /points outside \.loop\//],
    ['sub/a', '../../outside', /points outside/],
    ['a', 'x/../../y', /`\.\.` after a folder name/],
    ['sub/a', 'x/..', /`\.\.` after a folder name/],
    ['a', '', /empty/],
    ['a', 'x\0y', /NUL/],
  ])('refuses %s -> %j', (path, target, why) => {
    expect(linkTargetProblem(path, target)).toMatch(why);
  });
});

describe('entryPathProblem', () => {
  it.each(['plan.md', 'a/b/c', 'ünï cødé/日本語 😀', 'sub/.hidden', 'a b'])('allows %j', (path) => {
    expect(entryPathProblem(path)).toBeNull();
  });

  it.each([
    ['/abs', /absolute/], ['../up', /contains `\.\.`/], ['a/../b', /contains `\.\.`/], ['a/./b', /contains `\.`/], ['a//b', /empty path segment/],
    ['a/', /empty path segment/], ['.journal/x', /dotfile entry/], ['.gitignore', /dotfile entry/], ['a\0b', /NUL/],
  ])('refuses %j', (path, why) => {
    expect(entryPathProblem(path)).toMatch(why);
  });

  it('allows a named dotfile when asked to (a mode switch rewrites .gitignore)', () => {
    expect(entryPathProblem('.gitignore', ['.gitignore'])).toBeNull();
    expect(entryPathProblem('.journal', ['.gitignore'])).toMatch(/dotfile/);
  });
});

describe('manifestProblem', () => {
  it('accepts a well-formed tree', () => {
    expect(manifestProblem([dir('a'), file('a/b'), dir('a/c'), link('a/c/l', '../b'), file('top')])).toBeNull();
  });

  it.each<[string, StashEntry[], RegExp]>([
    ['a nested entry without its folder', [file('a/b')], /a\/b: its folder a is not a folder/],
    ['an entry under a file', [file('a'), file('a/b')], /its folder a is not a folder/],
    ['an entry under a link', [link('a', '.'), file('a/b')], /its folder a is not a folder/],
    ['a duplicate path', [file('a'), dir('a')], /a: it appears twice/],
    ['an outward link', [dir('d'), link('d/l', '../../x')], /d\/l: it points outside/],
    ['a `..` path', [file('../x')], /contains `\.\.`/],
  ])('refuses %s', (_name, entries, why) => {
    expect(manifestProblem(entries)).toMatch(why);
  });

  it('topNames lists each name directly in .loop/ once, in order', () => {
    expect(topNames([dir('a'), file('a/b'), file('c'), file('a/d')])).toEqual(['a', 'c']);
  });
});
