// An unknown command is exec; secrets and control paths among its arguments raise it.
import { describe, expect, it } from 'vitest';
import { shellClass } from '../support.js';

describe('unknown commands', () => {
  it('arguments naming secrets or control paths count; boundary paths do not (test runners name tests/)', () => {
    expect(shellClass('mytool').class).toBe('exec');
    expect(shellClass('mytool --env-file .env').class).toBe('secret');
    expect(shellClass('mytool -o .git/config').class).toBe('protected');
    expect(shellClass('vitest run tests/fixtures/x.test.ts').class).toBe('exec');
    expect(shellClass('mytool *.json').class).toBe('exec');
  });
});
