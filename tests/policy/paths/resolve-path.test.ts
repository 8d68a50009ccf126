// Paths resolve like a shell resolves them, without touching the file system.
import { describe, expect, it } from 'vitest';
import { displayPath, normalizeAbsolute, projectRelative, resolvePath } from '../../../policy/paths/resolve-path.js';

describe('resolvePath', () => {
  it.each([
    ['/p', 'src/./a//b', undefined, '/p/src/a/b'],
    ['/p/src', '../.git/hooks', undefined, '/p/.git/hooks'],
    ['/p', '/etc/../etc/hosts', undefined, '/etc/hosts'],
    ['/p', '../../../..', undefined, '/'],
    ['/p', '~/.ssh/id_rsa', '/home/u', '/home/u/.ssh/id_rsa'],
    ['/p', '~', '/home/u', '/home/u'],
    ['/p', '~/.ssh/../.aws', undefined, '~/.aws'],
    ['/p', '~bob/x', undefined, '~bob/x'],
  ])('%s + %s (home %s) = %s', (cwd, path, home, expected) => {
    expect(resolvePath(cwd, path, home)).toBe(expected);
  });
  it('tells project-relative paths from outside ones', () => {
    expect(projectRelative('/p/src/a', '/p')).toBe('src/a');
    expect(projectRelative('/p', '/p/')).toBe('.');
    expect(projectRelative('/pp/x', '/p')).toBeNull();
    expect(displayPath('/etc/hosts', '/p')).toBe('/etc/hosts');
    expect(normalizeAbsolute('//a/./b/')).toBe('/a/b');
  });
});
