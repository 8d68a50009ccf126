// config/prd/story-list-line.ts: the line of prd.yaml's `stories:` key, for a message about the list.
import { describe, expect, it } from 'vitest';
import { storyListLine } from '../../../config/prd/story-list-line.js';

describe('storyListLine', () => {
  it('names the line of the `stories:` key, after comments and other keys; 1 when there is none', () => {
    expect(storyListLine('stories:\n  - id: S1\n')).toBe(1);
    expect(storyListLine('# our stories\n\nproject: x\nstories: [{ id: S1 }]\n')).toBe(4);
    expect(storyListLine('- id: S1\n')).toBe(1);
  });
});
