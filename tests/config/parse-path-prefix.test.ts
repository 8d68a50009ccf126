import { describe, expect, it } from 'vitest';
import { parsePathPrefix } from '../../config/parse-path-prefix.js';

describe('parsePathPrefix', () => {
  it.each([
    ['src/', 'src/'], ['./src/', 'src/'], ['src', 'src'], ['././a//b/./c', 'a/b/c'], ['a/b/.', 'a/b/'], ['src/main.rs', 'src/main.rs'],
    ['.github/', '.github/'], ['.loopy/', '.loopy/'],
  ])('%s → %s', (text, prefix) => {
    expect(parsePathPrefix(text)).toEqual({ ok: true, value: prefix });
  });
  it.each(['/etc', 'C:\\x', '~/x', '../x', 'a/../b', 'a/..', '.loop', '.loop/', './.loop/plan.md', '.', './', 'src/*.ts'])('rejects %j', (text) => {
    expect(parsePathPrefix(text).ok).toBe(false);
  });
});
