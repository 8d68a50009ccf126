// Codex's older shell tools give argv lists or strings.
import { describe, expect, it } from 'vitest';
import { parseShellList } from '../../../policy/normalize/shell-list.js';

describe('parseShellList', () => {
  it('joins argv, keeps strings, falls back to cmd', () => {
    expect(parseShellList({ command: ['ls', '-la'] })).toBe('ls -la');
    expect(parseShellList({ command: 'ls -la' })).toBe('ls -la');
    expect(parseShellList({ cmd: 'pwd' })).toBe('pwd');
    expect(parseShellList({})).toBeNull();
  });
});
