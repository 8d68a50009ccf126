// scheduleStory (DESIGN §10): dependencies first, then priority and id, and never two stories side by
// side whose last attempts touched the same file.
import { describe, expect, it } from 'vitest';
import type { Story } from '../../../config/prd/story.js';
import { scheduleStory } from '../../../machines/parallel/schedule-story.js';
import { initialPrd } from '../../../machines/stories/story-progress.js';

const story = (id: string, extra: Partial<Story> = {}): Story => ({
  id, title: `Story ${id}`, priority: null, dependsOn: [], acceptance: [{ text: 'works', check: `test -f ${id}` }], passes: false, line: 1, ...extra,
});

describe('scheduleStory', () => {
  const prd = initialPrd([story('S1'), story('S2'), story('S3'), story('S4', { dependsOn: ['S1'] })]);

  it('holds back a story whose last attempt touched a file the story in a lane touched too, and says so in the reason', () => {
    const touched = { S1: ['src/shared.ts', 'src/a.ts'], S2: ['src/shared.ts'], S3: ['src/c.ts'] };
    expect(scheduleStory(prd, ['S1'], touched)).toEqual({
      story: 'S3',
      reason: 'S3 is the ready story with the lowest priority, then id; in lanes: S1; held back: S2 (touched src/shared.ts like S1); waiting on dependencies: S4',
    });
  });

  it('starts nothing when every ready story clashes with a lane, and starts the clashing one once its neighbour left the lane', () => {
    const touched = { S1: ['src/shared.ts'], S2: ['src/shared.ts'], S3: ['src/shared.ts'] };
    expect(scheduleStory(prd, ['S1'], touched)).toBeNull();
    expect(scheduleStory(prd, [], touched)?.story).toBe('S1');
  });

  it('runs stories side by side that touched different files, or that no attempt has touched yet', () => {
    expect(scheduleStory(prd, ['S1'], { S1: ['src/a.ts'], S2: ['src/b.ts'] })?.story).toBe('S2');
    expect(scheduleStory(prd, ['S1'], {})?.story).toBe('S2');
  });

  it('starts a story only once its dependencies passed, the lowest priority first', () => {
    const ordered = initialPrd([story('S1', { passes: true }), story('S2', { priority: 2 }), story('S3', { priority: 1, dependsOn: ['S2'] }), story('S4', { priority: 3 })]);
    expect(scheduleStory(ordered, [], {})).toEqual({ story: 'S2', reason: 'S2 is the ready story with the lowest priority, then id; waiting on dependencies: S3' });
    expect(scheduleStory(ordered, ['S2'], {})?.story).toBe('S4');
    expect(scheduleStory(ordered, ['S2', 'S4'], {})).toBeNull();
  });
});
