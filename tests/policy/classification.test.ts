// Findings add up to one classification: the most severe class, every class, paths and reasons.
import { describe, expect, it } from 'vitest';
import { summarizeFindings } from '../../policy/classification.js';

describe('summarizeFindings', () => {
  it('puts the most severe class first and keeps paths in the order found', () => {
    const summary = summarizeFindings([
      { class: 'edit', reason: 'writes a', path: 'a' },
      { class: 'destructive', reason: 'deletes b', path: 'b' },
      { class: 'edit', reason: 'writes a', path: 'a' },
    ]);
    expect(summary).toEqual({ class: 'destructive', classes: ['destructive', 'edit'], paths: ['a', 'b'], reasons: ['deletes b', 'writes a'] });
  });
  it('calls a call with no findings a read', () => {
    expect(summarizeFindings([])).toMatchObject({ class: 'read', classes: ['read'], paths: [] });
  });
});
