// opencode tools as acts.
import { describe, expect, it } from 'vitest';
import { normalizeOpencodeTool } from '../../../policy/normalize/normalize-opencode-tool.js';

describe('normalizeOpencodeTool', () => {
  it.each([
    ['bash', { command: 'ls' }, 'shell'], ['edit', { filePath: 'a' }, 'write'], ['write', { filePath: 'a' }, 'write'], ['read', { filePath: 'a' }, 'read'],
    ['glob', { pattern: '*' }, 'search'], ['grep', { pattern: 'x' }, 'search'], ['list', { path: '.' }, 'search'], ['webfetch', { url: 'u' }, 'network'],
    ['task', {}, 'delegate'], ['todowrite', {}, 'internal'], ['patch', {}, 'unknown'], ['other', {}, 'unknown'],
  ])('%s is a %s act', (tool, input, kind) => {
    expect(normalizeOpencodeTool(tool, input)[0]?.kind).toBe(kind);
  });
  it('bash runs in its workdir', () => {
    expect(normalizeOpencodeTool('bash', { command: 'ls', workdir: '/p/x' })).toEqual([{ kind: 'shell', command: 'ls', cwd: '/p/x' }]);
  });
});
