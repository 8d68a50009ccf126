import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contextBlock, CUT_MARK, shareOut, tail, withContextBlock } from '../../../machines/context/context-block.js';
import type { ContextFileName } from '../../../machines/context/context-files.js';

const files = (project: string | null, decisions: string | null, knowledge: string | null) => [
  { name: 'PROJECT.md' as ContextFileName, text: project },
  { name: 'DECISIONS.md' as ContextFileName, text: decisions },
  { name: 'KNOWLEDGE.md' as ContextFileName, text: knowledge },
];

describe('the "Project context" block (DESIGN §9)', () => {
  it('lists each file with text under its heading, and closes with a rule ahead of the task', () => {
    const { block, shares } = contextBlock(files('Ship a CLI.\n', null, '  \n'), 8000);
    expect(block).toBe('# Project context\n\n## .yoke/context/PROJECT.md\n\nShip a CLI.\n\n---\n\n');
    expect(shares).toEqual([{ name: 'PROJECT.md', injected: 11 }, { name: 'DECISIONS.md', injected: 0 }, { name: 'KNOWLEDGE.md', injected: 0 }]);
    expect(withContextBlock(block, 'TASK')).toBe(`${block}TASK`);
  });

  it('missing or empty files give no block, and the prompt stays byte-identical', () => {
    expect(contextBlock(files(null, '', '\n\n'), 8000).block).toBe('');
    expect(withContextBlock('', 'TASK')).toBe('TASK');
  });

  it('shares the budget equally; a share one file does not use passes to the others; a long file keeps its tail', () => {
    expect(shareOut([10, 1000, 1000], 910)).toEqual([10, 450, 450]);
    expect(shareOut([5, 5, 5], 100)).toEqual([5, 5, 5]);
    const ledger = Array.from({ length: 400 }, (_, i) => `## entry ${i}`).join('\n');
    const { block } = contextBlock(files('North star.', ledger, null), 1000);
    expect(block.length).toBeLessThanOrEqual(1000);
    expect(block).toContain('North star.');
    expect(block).toContain(`${CUT_MARK}## entry`);
    expect(block).toContain('## entry 399\n\n---\n\n');
    expect(block).not.toContain('## entry 0\n');
  });

  it('the whole block, headings included, never exceeds the budget (property)', () => {
    fc.assert(fc.property(fc.option(fc.string({ maxLength: 3000 })), fc.option(fc.string({ maxLength: 3000 })), fc.option(fc.string({ maxLength: 3000 })), fc.nat(9000), (a, b, c, budget) => {
      expect(contextBlock(files(a, b, c), budget).block.length).toBeLessThanOrEqual(budget);
    }));
  });

  it('a tail starts on a whole line and never on half a surrogate pair', () => {
    const long = 'x'.repeat(100);
    expect(tail(`${long}\nsecond line\nthird`, CUT_MARK.length + 14)).toBe(`${CUT_MARK}third`);
    expect(tail(`${long}ab😀cd`, CUT_MARK.length + 3)).toBe(`${CUT_MARK}cd`);
    expect(tail('short', 100)).toBe('short');
  });
});
