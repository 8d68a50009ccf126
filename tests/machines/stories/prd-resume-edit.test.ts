// machines/stories/prd-resume-edit.ts: prd.yaml's edits as data, on resume and on a new run since the last one.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parsePrd } from '../../../config/prd/parse-prd.js';
import { prdResumeEdit, prdSinceLastRun } from '../../../machines/stories/prd-resume-edit.js';
import { initialPrd } from '../../../machines/stories/story-progress.js';
import type { WorkContext } from '../../../machines/work/work-context.js';

const PRD = 'stories:\n  - id: S1\n    title: First\n    acceptance: [it works]\n    passes: true\n  - id: S2\n    title: Second\n    acceptance: [x]\n';
const EDITED = PRD.replace('[it works]', '[it works, fast]');
const REOPENED = EDITED.replace('passes: true', 'passes: false');
const known = { prd: initialPrd(parsePrd(PRD, '.loop/prd.yaml').stories ?? []) } as unknown as WorkContext;
const reader = (text: string) => (name: string) => (name === 'prd.yaml' ? text : null);

describe('prd.yaml edited since a run saw it', () => {
  it('on resume: the reopened story set back in the file, and that file kept as the blob the event names', () => {
    const edit = prdResumeEdit(known, reader(EDITED));
    expect(edit?.writes).toEqual({ 'prd.yaml': REOPENED });
    expect(edit?.blobs).toEqual([REOPENED]);
    expect(edit?.event).toMatchObject({ type: 'STORIES_CHANGED', edited: ['S1'], reopened: ['S1'], prdBlob: createHash('sha256').update(REOPENED).digest('hex') });
  });

  it('on a new run, against the last run\'s final list: the same change and warning, but no blob (the new run backs the file up as it starts)', () => {
    const edit = prdSinceLastRun(known, reader(EDITED));
    expect(edit?.writes).toEqual({ 'prd.yaml': REOPENED });
    expect(edit?.blobs).toEqual([]);
    expect(edit?.event).toMatchObject({ type: 'STORIES_CHANGED', edited: ['S1'], reopened: ['S1'], prdBlob: null });
    expect(edit?.notices).toEqual([
      { level: 'warn', text: 'story S1 passed before, but its acceptance criteria changed: it is not passed any more' },
      { level: 'progress', text: 'prd.yaml changed: edited S1' },
    ]);
    expect(prdSinceLastRun(known, reader(PRD))).toBeNull();
  });
});
