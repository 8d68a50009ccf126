// find lists its roots; -delete and -exec act on what it finds; -fprint writes.
import { describe, expect, it } from 'vitest';
import { shellClass } from '../support.js';

describe('find', () => {
  it('lists its roots (the cwd by default)', () => {
    expect(shellClass('find').paths).toEqual(['.']);
    expect(shellClass('find ~/.ssh -name "*.pub"').class).toBe('secret');
  });
  it('runs -exec commands with an unknown argument', () => {
    expect(shellClass('find . -name "*.c" -exec cat {} \\;').class).toBe('read');
    expect(shellClass('find . -exec chmod 600 {} +').class).toBe('protected');
    expect(shellClass('find . -ok rm {} \\;').class).toBe('destructive');
  });
  it('-fprint writes its file', () => {
    expect(shellClass('find . -fprint .git/list').class).toBe('protected');
  });
});
