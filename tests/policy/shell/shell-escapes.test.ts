// Quoting is undone the way the shell undoes it, so `\rm` and `$'\x72m'` are `rm`.
import { describe, expect, it } from 'vitest';
import { decodeAnsiC, unescapeDoubleQuoted, unescapeUnquoted } from '../../../policy/shell/shell-escapes.js';

describe('shell escapes', () => {
  it('unquoted: every backslash escapes the next character; backslash-newline vanishes', () => {
    expect(unescapeUnquoted('\\rm')).toBe('rm');
    expect(unescapeUnquoted('a\\ b')).toBe('a b');
    expect(unescapeUnquoted('a\\\nb')).toBe('ab');
  });
  it('double-quoted: only $ ` " \\ and newline are escaped', () => {
    expect(unescapeDoubleQuoted('\\$HOME \\n \\"')).toBe('$HOME \\n "');
  });
  it('$\'…\': C escapes, hex, octal, unicode and control characters', () => {
    expect(decodeAnsiC('\\x72\\155')).toBe('rm');
    expect(decodeAnsiC('a\\tb\\n')).toBe('a\tb\n');
    expect(decodeAnsiC('\\u0041\\U0001F600')).toBe('A😀');
    expect(decodeAnsiC('\\cA')).toBe('\x01');
    expect(decodeAnsiC("\\'\\\\")).toBe("'\\");
  });
});
