// Gemini CLI tools (0.61) as acts, from the real functionCall and stream-json shapes; qwen shares them.
import { describe, expect, it } from 'vitest';
import { normalizeGeminiTool } from '../../../policy/normalize/normalize-gemini-tool.js';

const MEMORY = '~/.gemini/GEMINI.md';
/** `functionCall` of samples/mock-responses/gemini-sse-functionCall.txt. */
const SAMPLE = { name: 'write_file', args: { file_path: '/WORKDIR/notes.md', content: 'STATUS: DONE\n' } };

describe('normalizeGeminiTool', () => {
  it('maps the sample call', () => {
    expect(normalizeGeminiTool(SAMPLE.name, SAMPLE.args, MEMORY)).toEqual([{ kind: 'write', path: '/WORKDIR/notes.md' }]);
  });
  it.each([
    ['run_shell_command', { command: 'ls' }, 'shell'], ['replace', { file_path: 'a' }, 'write'], ['read_file', { file_path: 'a' }, 'read'],
    ['list_directory', { dir_path: 'a' }, 'search'], ['glob', { pattern: '*' }, 'search'], ['grep_search', { pattern: 'x' }, 'search'],
    ['search_file_content', { pattern: 'x' }, 'search'], ['web_fetch', { prompt: 'x' }, 'network'], ['google_web_search', { query: 'x' }, 'network'],
    ['invoke_agent', {}, 'delegate'], ['write_todos', {}, 'internal'], ['tracker_new_thing', {}, 'internal'], ['read_mcp_resource', {}, 'unknown'],
  ])('%s is a %s act', (tool, input, kind) => {
    expect(normalizeGeminiTool(tool, input, MEMORY)[0]?.kind).toBe(kind);
  });
  it('run_shell_command runs in dir_path; save_memory writes the memory file; read_many_files searches each pattern', () => {
    expect(normalizeGeminiTool('run_shell_command', { command: 'ls', dir_path: 'src' }, MEMORY)).toEqual([{ kind: 'shell', command: 'ls', cwd: 'src' }]);
    expect(normalizeGeminiTool('save_memory', { fact: 'x' }, MEMORY)).toEqual([{ kind: 'write', path: MEMORY }]);
    expect(normalizeGeminiTool('read_many_files', { include: ['a/*', 'b'] }, MEMORY)).toHaveLength(2);
  });
});
