import { describe, expect, it } from 'vitest';
import { closestMatch, editDistance, withSuggestion } from '../../config/closest-match.js';

describe('closestMatch', () => {
  it('measures edit distance', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });
  it('suggests the nearest candidate, ignoring case', () => {
    expect(closestMatch('max-iteration', ['mode', 'max-iterations', 'max-chunks'])).toBe('max-iterations');
    expect(closestMatch('MODE', ['mode', 'model'])).toBe('mode');
  });
  it('suggests nothing when nothing is close', () => {
    expect(closestMatch('frobnicate', ['mode', 'guard'])).toBeUndefined();
    expect(withSuggestion('use x', 'frobnicate', ['mode'])).toBe('use x');
  });
});
