// Wrappers run their inner command; xargs and find supply arguments yoke cannot see.
import { describe, expect, it } from 'vitest';
import { shellClass } from '../support.js';

describe('wrapper rules', () => {
  it('sudo options are skipped and sudo itself is exec', () => {
    expect(shellClass('sudo -u root -E cat /etc/hosts').classes).toEqual(['exec', 'read']);
    expect(shellClass('sudo -i').class).toBe('exec');
  });
  it('time -o writes its output file', () => {
    expect(shellClass('time -o .git/t ls').class).toBe('protected');
  });
  it('xargs -I replaces the placeholder with an unknown argument; -a reads its file', () => {
    expect(shellClass('xargs -I{} cp {} dest/').paths).toContain('dest');
    expect(shellClass('xargs -a .env echo').class).toBe('secret');
    expect(shellClass('xargs').class).toBe('read');
  });
  it('timeout skips its duration; watch runs its words as a script', () => {
    expect(shellClass('timeout -s KILL 5 curl x').class).toBe('network');
    expect(shellClass("watch -n 1 'rm -rf keep'").class).toBe('destructive');
  });
});
