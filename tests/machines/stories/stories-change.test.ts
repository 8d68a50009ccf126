// What `yoke run` journals when the user edited prd.yaml between runs (DESIGN §8): storiesChange and applyStoriesChange.
import { describe, expect, it } from 'vitest';
import { parsePrd } from '../../../config/prd/parse-prd.js';
import type { Story } from '../../../config/prd/story.js';
import { applyStoriesChange, storiesChange } from '../../../machines/stories/stories-change.js';
import { initialPrd, updateProgress } from '../../../machines/stories/story-progress.js';

const PRD = `stories:
  - id: S1
    title: Parser
    acceptance:
      - text: parses
        check: npm test -- parser
  - id: S2
    title: Printer
    acceptance: [prints]
`;

function stories(text: string): Story[] {
  const parsed = parsePrd(text, '.loop/prd.yaml').stories;
  if (!parsed) throw new Error(`does not parse: ${text}`);
  return parsed;
}

const known = stories(PRD);
const passedS1 = new Set(['S1']);

describe('storiesChange', () => {
  it('a passed story whose criterion text changed is edited and reopened (an edit inside a criterion was invisible)', () => {
    expect(storiesChange(known, passedS1, stories(PRD.replace('- text: parses', '- text: parses fast')))).toEqual({ added: [], removed: [], edited: ['S1'], reopened: ['S1'] });
  });

  it('a passed story whose criterion check command changed is reopened', () => {
    expect(storiesChange(known, passedS1, stories(PRD.replace('npm test -- parser', 'npm test -- parser --strict')))).toEqual({ added: [], removed: [], edited: ['S1'], reopened: ['S1'] });
  });

  it('a passed story whose title changed is edited but stays passed', () => {
    expect(storiesChange(known, passedS1, stories(PRD.replace('title: Parser', 'title: The parser')))).toEqual({ added: [], removed: [], edited: ['S1'], reopened: [] });
  });

  it('moving stories to other lines or setting passes is no change', () => {
    expect(storiesChange(known, passedS1, stories(`# a comment\n${PRD.replace('    acceptance: [prints]\n', '    acceptance: [prints]\n    passes: true\n')}`))).toBeNull();
  });

  it('an added and a removed story are named', () => {
    const next = stories(PRD.replace(/ {2}- id: S2[\s\S]*$/, '  - id: S3\n    title: Docs\n    acceptance: [documented]\n'));
    expect(storiesChange(known, passedS1, next)).toEqual({ added: ['S3'], removed: ['S2'], edited: [], reopened: [] });
  });
});

describe('applyStoriesChange', () => {
  it('a reopened story is not passed any more and starts its attempts over; its iterations stay', () => {
    const prd = updateProgress(initialPrd(known), 'S1', { passed: true, attempts: 1, iterations: 2, commit: 'c0ffee' });
    const next = stories(PRD.replace('- text: parses', '- text: parses fast'));
    const change = storiesChange(known, passedS1, next);
    if (!change) throw new Error('no change');
    const after = applyStoriesChange(prd, next, change);
    expect(after.progress.S1).toMatchObject({ passed: false, attempts: 0, iterations: 2, commit: null });
    expect(after.stories).toEqual(next);
  });
});
