// Qwen Code tools (0.24.4) as acts: its own tools, the bridge to deferred tools, and the ones it
// shares with Gemini CLI; classified in a scope, the ones that matter reach the class they should.
import { describe, expect, it } from 'vitest';
import { classifyToolCall } from '../../../policy/classify-tool-call.js';
import { normalizeQwenTool } from '../../../policy/normalize/normalize-qwen-tool.js';
import { gateScope } from '../../../policy/gate/gate-scope.js';

const scope = gateScope('/p', null, { allow: [], noModify: ['src/'] }, '/home/u');
const classOf = (tool: string, input: unknown): string | null => classifyToolCall({ agent: 'qwen', tool, input }, scope).class;

describe('normalizeQwenTool', () => {
  it.each([
    ['notebook_edit', { notebook_path: '/p/src/a.ipynb', new_source: 'x' }, 'write'], ['zoom_image', { file_path: '/p/a.png' }, 'read'],
    ['monitor', { command: 'tail -f log' }, 'shell'], ['enter_worktree', { name: 'x' }, 'write'], ['image_gen', { prompt: 'x' }, 'network'],
    ['team_create', {}, 'delegate'], ['get_goal', {}, 'internal'], ['tool_search', { query: 'x' }, 'internal'], ['ask_user_question', {}, 'internal'],
    ['run_shell_command', { command: 'ls' }, 'shell'], ['write_file', { file_path: '/p/a' }, 'write'], ['agent', {}, 'delegate'],
  ])('%s is a %s act', (tool, input, kind) => {
    expect(normalizeQwenTool(tool, input)[0]?.kind).toBe(kind);
  });

  it('a tool_call is ruled as the tool it calls; one with no tool (or calling itself) is unknown', () => {
    expect(normalizeQwenTool('tool_call', { name: 'run_shell_command', arguments: { command: 'rm -rf keep' } })).toEqual([{ kind: 'shell', command: 'rm -rf keep' }]);
    expect(normalizeQwenTool('tool_call', { name: 'tool_call', arguments: {} })[0]?.kind).toBe('unknown');
    expect(normalizeQwenTool('tool_call', {})[0]?.kind).toBe('unknown');
  });

  it('save_memory writes qwen\'s own memory file; monitor runs in its directory', () => {
    expect(normalizeQwenTool('save_memory', { fact: 'x' })).toEqual([{ kind: 'write', path: '~/.qwen/QWEN.md' }]);
    expect(normalizeQwenTool('monitor', { command: 'ls', directory: '/p/src' })).toEqual([{ kind: 'shell', command: 'ls', cwd: '/p/src' }]);
  });

  it('classified: a notebook edit under no-modify is protected, a worktree under .qwen/ protected, a bridged rm -rf destructive, a monitor curl network', () => {
    expect(classOf('notebook_edit', { notebook_path: '/p/src/a.ipynb' })).toBe('protected');
    expect(classOf('enter_worktree', {})).toBe('protected');
    expect(classOf('tool_call', { name: 'run_shell_command', arguments: { command: 'rm -rf keep' } })).toBe('destructive');
    expect(classOf('monitor', { command: 'curl -s http://127.0.0.1:9/' })).toBe('network');
  });
});
