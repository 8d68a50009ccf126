// The tool calls Codex reports as executed: its command_execution and file_change items (a call its
// PreToolUse hook denied never becomes one), commands unwrapped from codex's `bash -lc`.
import { describe, expect, it } from 'vitest';
import { createCodexParser } from '../../../effects/adapters/codex.js';
import { unwrapCodexCommand } from '../../../effects/adapters/codex-tool-calls.js';
import { feed, sample } from './support/feed-parser.js';

const executed = (name: string) => {
  const parser = createCodexParser(null);
  feed(parser, { stdout: sample(name) });
  return parser.toolCalls?.();
};

describe('the tool calls codex ran', () => {
  it('a command is matched by the text the model gave (unwrapped from bash -lc), a patch by the files it changed; a denied call is absent', () => {
    expect(executed('codex-0.171.0-exec-json-hook-denied.jsonl')).toEqual([
      { tool: 'Bash', match: { by: 'command', command: 'ls keep' }, summary: 'Bash ls keep' },
      { tool: 'apply_patch', match: { by: 'paths', paths: ['/tmp/yoke-e2e-vz5aii/project/.loop/notes.md'] }, summary: 'apply_patch /tmp/yoke-e2e-vz5aii/project/.loop/notes.md' },
    ]);
  });

  it('codex\'s double-quoted wrapper is undone too', () => {
    expect(executed('codex-0.171.0-exec-json-tool-exec_command.jsonl')?.map((call) => call.match)).toEqual([{ by: 'command', command: "printf '%s\\n' 'STATUS: DONE' > notes.md && cat notes.md" }]);
  });

  it('only a plain `<shell> -c|-lc <script>` is unwrapped', () => {
    expect(unwrapCodexCommand("/bin/zsh -c 'echo hi'")).toBe('echo hi');
    expect(unwrapCodexCommand('bash -lc "a" extra')).toBe('bash -lc "a" extra');
    expect(unwrapCodexCommand('python -c "print(1)"')).toBe('python -c "print(1)"');
  });
});
