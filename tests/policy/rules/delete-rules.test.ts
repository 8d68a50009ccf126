// rm, rmdir, unlink delete; shred destroys.
import { describe, expect, it } from 'vitest';
import { shellClass } from '../support.js';

describe('delete rules', () => {
  it('deletes each operand, after --', () => {
    expect(shellClass('rm -f -- -x y').paths).toEqual(['-x', 'y']);
    expect(shellClass('rm').class).toBe('read');
  });
  it('an untracked file is a plain write when the tracked list says so; shred never is', () => {
    expect(shellClass('rm a.o', { tracked: ['src/a.c'] }).class).toBe('edit');
    expect(shellClass('shred a.o', { tracked: ['src/a.c'] }).class).toBe('destructive');
  });
});
