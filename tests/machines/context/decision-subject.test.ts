import { describe, expect, it } from 'vitest';
import { decisionId, decisionTitle } from '../../../machines/context/decision-subject.js';

describe('decision subject (DESIGN §9: what gets an entry)', () => {
  it('names a saga chunk `chunk-N`, a goal `goal`, a loop/brute run by its id’s first 8 characters', () => {
    expect(decisionId({ kind: 'chunk', chunk: 3 })).toBe('chunk-3');
    expect(decisionId({ kind: 'goal' })).toBe('goal');
    expect(decisionId({ kind: 'run', run: '01JABCDEFGHJKMNPQRSTVWXYZ0' })).toBe('01JABCDE');
  });

  it('a chunk’s title is the first line of its sub-plan; the others’ the first heading, marks dropped', () => {
    expect(decisionTitle({ kind: 'chunk', chunk: 1 }, '\n\nParser first\n# Later heading\n', 'sub-plan.md')).toBe('Parser first');
    expect(decisionTitle({ kind: 'chunk', chunk: 1 }, '## Chunk 2: the printer ##\n', 'sub-plan.md')).toBe('Chunk 2: the printer');
    expect(decisionTitle({ kind: 'goal' }, 'intro text\n\n# Every sample parses\n', 'goal.md')).toBe('Every sample parses');
    expect(decisionTitle({ kind: 'run', run: 'r' }, '\uFEFF### Build the widget\r\nbody\r\n', 'plan.md')).toBe('Build the widget');
  });

  it('falls back to the first line without a heading, and to the plan’s name for an empty or missing plan', () => {
    expect(decisionTitle({ kind: 'goal' }, 'just prose\n', 'goal.md')).toBe('just prose');
    expect(decisionTitle({ kind: 'run', run: 'r' }, '  \n', 'plan.md')).toBe('plan.md');
    expect(decisionTitle({ kind: 'run', run: 'r' }, null, 'plan.md')).toBe('plan.md');
  });
});
