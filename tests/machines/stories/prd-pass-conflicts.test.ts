// machines/stories/prd-pass-conflicts.ts: a prd.yaml edit made while a story's pass was outstanding
// must leave that story there, with the criteria it passed on.
import { describe, expect, it } from 'vitest';
import { parsePrd } from '../../../config/prd/parse-prd.js';
import { request, type EffectRequest } from '../../../machines/effects.js';
import { prdPassConflicts } from '../../../machines/stories/prd-pass-conflicts.js';
import { initialPrd } from '../../../machines/stories/story-progress.js';
import type { WorkContext } from '../../../machines/work/work-context.js';

const PRD = '# the list\nstories:\n  - id: S1\n    title: First\n    acceptance: [one]\n  - id: S2\n    title: Second\n    acceptance: [two]\n';
const known = { prd: initialPrd(parsePrd(PRD, '.loop/prd.yaml').stories ?? []) } as unknown as WorkContext;
const reader = (text: string) => (name: string) => (name === 'prd.yaml' ? text : null);
const pass = (story: string): EffectRequest => request('story.pass', { story, message: `feat(${story}): x`, iteration: 1, decision: '', commit: true });
const spawn = request('clock.read', { purpose: 'a date' });

describe('prdPassConflicts', () => {
  it('accepts any other edit of the list while a pass is outstanding (title, new story, another story\'s criteria), and anything when none is', () => {
    const edited = `${PRD.replace('title: First', 'title: First, fixed').replace('[two]', '[two, three]')}  - id: S3\n    title: Third\n    acceptance: [x]\n`;
    expect(prdPassConflicts(known, reader(edited), [pass('S1')])).toEqual([]);
    expect(prdPassConflicts(known, reader(PRD.replace(/ {2}- id: S1\n(?: {4}.*\n)+/, '')), [spawn])).toEqual([]);
  });

  it('refuses a list without the passing story (at the `stories:` line) or with its criteria changed (at its line)', () => {
    expect(prdPassConflicts(known, reader(PRD.replace(/ {2}- id: S1\n(?: {4}.*\n)+/, '')), [spawn, pass('S1')])).toEqual([{
      file: '.loop/prd.yaml', line: 2, column: 1, severity: 'error',
      message: 'story S1 passed its gates, and yoke stopped while it recorded that pass, but the list has no story S1 any more',
      hint: 'put S1 back and run `yoke run`: its pass lands with your other edits kept; remove it after the run',
    }]);
    expect(prdPassConflicts(known, reader(PRD.replace('[one]', '[one, and more]')), [pass('S1')])).toMatchObject([{ line: 3, message: expect.stringMatching(/^story S1 passed its gates on its acceptance criteria as they were/) as unknown }]);
  });
});
