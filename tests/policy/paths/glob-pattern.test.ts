// Globs match as bash (shell) or as `protect` patterns read them.
import { describe, expect, it } from 'vitest';
import { globMatches, hasGlob } from '../../../policy/paths/glob-pattern.js';

describe('globMatches', () => {
  it.each([
    ['*.ts', 'a.ts', true, true],
    ['*', '.env', true, false],
    ['.*', '.env', true, true],
    ['.en?', '.env', true, true],
    ['[.]env', '.env', true, false],
    ['src/*.ts', 'src/a/b.ts', false, false],
    ['src/**/*.ts', 'src/a/b.ts', false, true],
    ['src/**', 'src/a/b.ts', false, true],
    ['**', '.ssh', true, false],
    ['[!a]x', 'bx', true, true],
    ['a[', 'a[', true, true],
  ])('%s vs %s (shell %s): %s', (pattern, path, shell, expected) => {
    expect(globMatches(pattern, path, shell)).toBe(expected);
  });
  it('sees glob characters', () => {
    expect(hasGlob('a*')).toBe(true);
    expect(hasGlob('plain.txt')).toBe(false);
  });
});
