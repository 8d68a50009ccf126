// The marked block: found exactly, broken markers named with their line, the user's text kept.
import { describe, expect, it } from 'vitest';
import { appendBlock, findBlock, removeBlock, renderBlock, replaceBlock } from '../../../machines/retrofit/marked-block.js';

const block = renderBlock('markdown', '@AGENTS.md');

describe('marked blocks', () => {
  it('appends after the user\'s text, finds, replaces and removes without touching that text', () => {
    const user = '# Ours\n\nkeep me';
    const added = appendBlock(user, block);
    expect(added.startsWith(user)).toBe(true);
    const found = findBlock(added);
    if (found.state !== 'present') throw new Error(found.state);
    expect(found.text).toBe(block);
    const replaced = replaceBlock(added, found, renderBlock('markdown', 'new'));
    expect(replaced.startsWith(`${user}\n\n`)).toBe(true);
    expect(replaced).toContain('\nnew\n<!-- yoke:end canon -->\n');
    expect(removeBlock(added, found)).toBe(`${user}\n`);
  });

  it('writes the block in a CRLF file\'s own line ending, and finds, replaces and removes it there', () => {
    const user = '# Ours\r\n\r\nkeep me\r\n';
    const crlf = block.replace(/\n/g, '\r\n');
    const added = appendBlock(user, crlf);
    expect(added).toBe(`${user}\r\n${crlf}`);
    expect(added.replace(/\r\n/g, '')).not.toContain('\n');
    const found = findBlock(added);
    if (found.state !== 'present') throw new Error(found.state);
    expect(found.text).toBe(crlf);
    expect(removeBlock(added, found)).toBe(user);
  });

  it('uses # markers for hash-commented files', () => {
    expect(renderBlock('hash', 'backup/')).toBe('# yoke:begin canon: managed by yoke retrofit, edit outside this block\nbackup/\n# yoke:end canon\n');
    expect(findBlock(`x = 1\n${renderBlock('hash', 'y = 2')}`).state).toBe('present');
  });

  it.each([
    ['a begin without an end', `a\n${block.split('\n')[0] ?? ''}\nb\n`, 2],
    ['an end without a begin', 'a\n<!-- yoke:end canon -->\n', 2],
    ['two blocks', `${block}${block}`, 4],
  ])('calls %s broken, on its line', (_what, text, line) => {
    expect(findBlock(text)).toMatchObject({ state: 'broken', line });
  });

  it('reports no block in plain text', () => {
    expect(findBlock('# yoke is mentioned here\n').state).toBe('absent');
  });
});
