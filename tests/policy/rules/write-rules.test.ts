// Copies, moves, links, truncation, dd, chmod and sed -i.
import { describe, expect, it } from 'vitest';
import { shellClass } from '../support.js';

describe('write rules', () => {
  it('cp reads its sources; mv writes them (they move away)', () => {
    expect(shellClass('cp .env backup.txt').class).toBe('secret');
    expect(shellClass('mv .loop/plan.md x').class).toBe('protected');
    expect(shellClass('cp -t dest a b').paths).toEqual(['a', 'b', 'dest']);
    expect(shellClass('mv -n a README.md', { tracked: ['README.md'] }).class).toBe('edit');
  });
  it('ln -f over a tracked file is destructive; a plain link is a write', () => {
    expect(shellClass('ln -sf x README.md', { tracked: ['README.md'] }).class).toBe('destructive');
    expect(shellClass('ln -s x link').class).toBe('edit');
  });
  it('truncate -s +N only grows a file', () => {
    expect(shellClass('truncate -s +1M big.img').class).toBe('edit');
  });
  it('dd without of= writes no file', () => {
    expect(shellClass('dd if=a.img bs=1M').class).toBe('read');
  });
  it('chmod without -R changes one path', () => {
    expect(shellClass('chmod 644 src/a').class).toBe('edit');
    expect(shellClass('chmod --reference=a b').paths).toEqual(['b']);
  });
  it('sed reads without -i and rewrites with it, script by option or first operand', () => {
    expect(shellClass("sed -n '1p' .env").class).toBe('secret');
    expect(shellClass('sed -i -e s/a/b/ .loop/plan.md').class).toBe('protected');
    expect(shellClass('sed -i.bak s/a/b/ src/a').paths).toEqual(['src/a']);
  });
});
