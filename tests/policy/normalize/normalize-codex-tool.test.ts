// Codex tools (0.171) as acts: the model's names and the hook's names.
import { describe, expect, it } from 'vitest';
import { normalizeCodexTool } from '../../../policy/normalize/normalize-codex-tool.js';

/** The freeform input of samples/mock-responses/openai-responses-sse-apply_patch.txt. */
const PATCH = '*** Begin Patch\n*** Add File: notes.md\n+STATUS: DONE\n*** End Patch\n';

describe('normalizeCodexTool', () => {
  it('exec_command with its JSON arguments and workdir', () => {
    expect(normalizeCodexTool('exec_command', '{"cmd":"ls","workdir":"/p/src"}')).toEqual([{ kind: 'shell', command: 'ls', cwd: '/p/src' }]);
  });
  it('the hook names: Bash with command, apply_patch with command', () => {
    expect(normalizeCodexTool('Bash', { command: 'ls' })).toEqual([{ kind: 'shell', command: 'ls' }]);
    expect(normalizeCodexTool('apply_patch', { command: PATCH })).toEqual([{ kind: 'write', path: 'notes.md' }]);
  });
  it('apply_patch as freeform text or function arguments', () => {
    expect(normalizeCodexTool('apply_patch', PATCH)).toEqual([{ kind: 'write', path: 'notes.md' }]);
    expect(normalizeCodexTool('apply_patch', JSON.stringify({ input: PATCH }))).toEqual([{ kind: 'write', path: 'notes.md' }]);
    expect(normalizeCodexTool('apply_patch', {})).toMatchObject([{ kind: 'unknown' }]);
  });
  it('write_stdin is shell text; plans and sub-agents are internal and delegated', () => {
    expect(normalizeCodexTool('write_stdin', { chars: 'ls\n' })).toEqual([{ kind: 'shell', command: 'ls\n' }]);
    expect(normalizeCodexTool('update_plan', {})[0]?.kind).toBe('internal');
    expect(normalizeCodexTool('spawn_agent', {})[0]?.kind).toBe('delegate');
    expect(normalizeCodexTool('web_search', {})[0]?.kind).toBe('network');
    expect(normalizeCodexTool('mystery', {})[0]?.kind).toBe('unknown');
  });
});
