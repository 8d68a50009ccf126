// Shells run their script (inline, from a here-document, from a pipe), eval its words, source its file.
import { describe, expect, it } from 'vitest';
import { shellClass } from '../support.js';

describe('shell rules', () => {
  it('finds the -c script behind option clusters and -o options', () => {
    expect(shellClass("bash -e -o pipefail -c 'cat .env'").class).toBe('secret');
    expect(shellClass("zsh -xc 'git push -f'").class).toBe('destructive');
    expect(shellClass('sh -c').class).toBe('exec');
  });
  it('a script file is exec; reading a secret as a script is a secret', () => {
    expect(shellClass('bash deploy.sh').class).toBe('exec');
    expect(shellClass('sh .env').class).toBe('secret');
  });
  it('printf into a shell is the printed script', () => {
    expect(shellClass("printf '%s\\n' 'rm -rf keep' | bash").class).toBe('destructive');
  });
  it('eval of words known only at run time is exec', () => {
    expect(shellClass('eval "$X"').class).toBe('exec');
  });
});
