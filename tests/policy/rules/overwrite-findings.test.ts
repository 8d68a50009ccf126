// Writing over a tracked file loses its content: destructive, but only when the tracked list says so.
import { describe, expect, it } from 'vitest';
import { shellClass } from '../support.js';

describe('overwriteFindings', () => {
  it('is destructive over a tracked file, a write otherwise', () => {
    expect(shellClass('mv a src/main.rs', { tracked: ['src/main.rs'] }).class).toBe('destructive');
    expect(shellClass('mv a src/new.rs', { tracked: ['src/main.rs'] }).class).toBe('edit');
    expect(shellClass('mv a src/main.rs').class).toBe('edit');
    expect(shellClass('cd src && cp /tmp/x main.rs', { tracked: ['src/main.rs'] }).class).toBe('destructive');
  });
});
