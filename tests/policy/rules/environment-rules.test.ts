// The environment is a secret when it is printed; env and set do other things too.
import { describe, expect, it } from 'vitest';
import { shellClass } from '../support.js';

describe('environment rules', () => {
  it('env alone prints; env with a command runs it, -C in another directory, -S as a script', () => {
    expect(shellClass('env -i').class).toBe('secret');
    expect(shellClass('env A=1 B=2').class).toBe('secret');
    expect(shellClass('env -u X ls').class).toBe('read');
    expect(shellClass('env -C .git sh -c "echo x > config"').paths).toEqual(['.git/config']);
    expect(shellClass("env -S 'rm -rf keep'").class).toBe('destructive');
  });
  it('set with options, compgen for commands, and local are not secrets', () => {
    expect(shellClass('set -euo pipefail').class).toBe('read');
    expect(shellClass('compgen -c git').class).toBe('read');
    expect(shellClass('compgen -v').class).toBe('secret');
    expect(shellClass('f() { local; }').class).toBe('read');
  });
});
