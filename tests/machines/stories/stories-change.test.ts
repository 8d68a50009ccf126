// machines/stories/stories-change.ts: what changed between the stories a run knows and prd.yaml now.
import { describe, expect, it } from 'vitest';
import type { Story } from '../../../config/prd/story.js';
import { storiesChange } from '../../../machines/stories/stories-change.js';

const story = (over: Partial<Story> = {}): Story => ({ id: 'S1', title: 'First', priority: null, dependsOn: [], acceptance: [{ text: 'it works' }], passes: false, line: 2, ...over });

describe('storiesChange', () => {
  it('nothing changed when only the line and yoke\'s `passes` moved', () => {
    expect(storiesChange([story()], new Set(['S1']), [story({ line: 9, passes: true })])).toBeNull();
  });

  it('a criterion\'s text or check changed is an edit, and reopens a passed story', () => {
    expect(storiesChange([story()], new Set(['S1']), [story({ acceptance: [{ text: 'it works, fast' }] })])).toEqual({ added: [], removed: [], edited: ['S1'], reopened: ['S1'] });
    expect(storiesChange([story()], new Set(), [story({ acceptance: [{ text: 'it works', check: 'npm test' }] })])).toEqual({ added: [], removed: [], edited: ['S1'], reopened: [] });
  });
});
