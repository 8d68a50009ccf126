// Acts become findings: shells are parsed in their cwd, searches look at their folder and pattern.
import { describe, expect, it } from 'vitest';
import { actFindings } from '../../policy/act-findings.js';
import { summarizeFindings } from '../../policy/classification.js';
import { SCOPE } from './support.js';

const classOf = (...args: Parameters<typeof actFindings>) => summarizeFindings(actFindings(...args)).class;

describe('actFindings', () => {
  it('runs a shell act in its cwd, relative to the scope cwd', () => {
    expect(summarizeFindings(actFindings({ kind: 'shell', command: 'echo x > config', cwd: '.git' }, 'Bash', SCOPE)).paths).toEqual(['.git/config']);
    expect(classOf({ kind: 'shell', command: null }, 'Bash', SCOPE)).toBe('exec');
  });
  it('a write that names no file is protected', () => {
    expect(classOf({ kind: 'write', path: null }, 'Write', SCOPE)).toBe('protected');
  });
  it('a name-only search of a secret pattern is a read; a content search is a secret', () => {
    expect(classOf({ kind: 'search', path: null, pattern: '.env*', contents: false }, 'Glob', SCOPE)).toBe('read');
    expect(classOf({ kind: 'search', path: null, pattern: '.env*', contents: true }, 'Grep', SCOPE)).toBe('secret');
    expect(classOf({ kind: 'search', path: '/home/u/.ssh', pattern: null, contents: true }, 'Grep', SCOPE)).toBe('secret');
  });
  it('internal acts read, delegated and unknown ones exec', () => {
    expect(classOf({ kind: 'internal', what: 'x' }, 'TodoWrite', SCOPE)).toBe('read');
    expect(classOf({ kind: 'delegate', what: 'x' }, 'Agent', SCOPE)).toBe('exec');
    expect(classOf({ kind: 'unknown', what: 'x' }, 'X', SCOPE)).toBe('exec');
  });
});
