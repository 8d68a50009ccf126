import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderTemplate } from '../../machines/render-template.js';

describe('renderTemplate', () => {
  it('fills every occurrence of each known placeholder, numbers as decimal text', () => {
    expect(renderTemplate('{{iteration}} of {{maxIterations}}; again {{iteration}}', { iteration: 2, maxIterations: 10 })).toBe('2 of 10; again 2');
  });

  it('tolerates spaces inside the braces', () => {
    expect(renderTemplate('{{ loopDir }}|{{loopDir  }}|{{\tloopDir}}', { loopDir: '/p/.loop' })).toBe('/p/.loop|/p/.loop|/p/.loop');
  });

  it('leaves unknown placeholders and things that are not placeholders as they are', () => {
    const template = '{{unknown}} {{1st}} {{a-b}} {single} {{}} {{ iteration';
    expect(renderTemplate(template, { iteration: 1 })).toBe(template);
  });

  it('fills zero and empty values (present is not the same as truthy)', () => {
    expect(renderTemplate('[{{n}}][{{s}}]', { n: 0, s: '' })).toBe('[0][]');
  });

  it('inserts values literally: no `$` patterns, no second expansion of placeholders inside values', () => {
    expect(renderTemplate('{{a}}', { a: "$& $1 $$ $'" })).toBe("$& $1 $$ $'");
    expect(renderTemplate('{{a}} {{b}}', { a: '{{b}}', b: 'B' })).toBe('{{b}} B');
  });

  it('is the identity on text without placeholders', () => {
    fc.assert(fc.property(fc.string().filter((text) => !text.includes('{{')), (text) => {
      expect(renderTemplate(text, { iteration: 1 })).toBe(text);
    }));
  });

  it('the canon worker prompt uses only placeholders the loop fills', () => {
    const worker = readFileSync(new URL('../../canon/prompts/worker.md', import.meta.url), 'utf8');
    const rendered = renderTemplate(worker, { iteration: 3, maxIterations: 7, loopDir: '/p/.loop', planFile: 'plan.md' });
    expect(rendered).not.toMatch(/\{\{/);
    expect(rendered).toContain('iteration 3 of');
    expect(rendered).toContain('7');
  });
});
