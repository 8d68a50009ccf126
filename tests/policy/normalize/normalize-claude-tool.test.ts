// Claude Code tools (2.1.332) as acts, from the real PreToolUse payload shape.
import { describe, expect, it } from 'vitest';
import { normalizeClaudeTool } from '../../../policy/normalize/normalize-claude-tool.js';

/** `tool_name` and `tool_input` of samples/claude-hooks/stdin-PreToolUse.json. */
const SAMPLE = { tool_name: 'Write', tool_input: { file_path: '/home/dev/project/notes.md', content: 'STATUS: DONE\n' } };

describe('normalizeClaudeTool', () => {
  it('maps the sample hook payload', () => {
    expect(normalizeClaudeTool(SAMPLE.tool_name, SAMPLE.tool_input)).toEqual([{ kind: 'write', path: '/home/dev/project/notes.md' }]);
  });
  it.each([
    ['Bash', { command: 'ls' }, 'shell'], ['Edit', { file_path: 'a' }, 'write'], ['MultiEdit', { file_path: 'a' }, 'write'],
    ['NotebookEdit', { notebook_path: 'a' }, 'write'], ['Read', { file_path: 'a' }, 'read'], ['Glob', { pattern: '*' }, 'search'],
    ['Grep', { pattern: 'x' }, 'search'], ['WebFetch', { url: 'u' }, 'network'], ['WebSearch', { query: 'q' }, 'network'],
    ['Agent', {}, 'delegate'], ['Task', {}, 'delegate'], ['TodoWrite', {}, 'internal'], ['AskUserQuestion', {}, 'internal'],
    ['mcp__x__y', {}, 'unknown'], ['PowerShell', { command: 'x' }, 'unknown'],
  ])('%s is a %s act', (tool, input, kind) => {
    expect(normalizeClaudeTool(tool, input)[0]?.kind).toBe(kind);
  });
});
