// Which agent `yoke init` writes: --agent, else the first built-in CLI on PATH, else claude.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseInitAgent, keptAgent } from '../../cli/init-agent-choice.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A PATH of fresh directories, each holding executables with these names. */
function pathWith(...binDirs: string[][]): string {
  const root = mkdtempSync(join(tmpdir(), 'yoke-agent-path-'));
  dirs.push(root);
  return binDirs.map((names, i) => {
    const dir = join(root, `bin${i}`);
    mkdirSync(dir);
    for (const name of names) {
      writeFileSync(join(dir, name), '#!/bin/sh\nexit 0\n');
      chmodSync(join(dir, name), 0o755);
    }
    return dir;
  }).join(':');
}

describe('chooseInitAgent', () => {
  it('picks the first installed in the order claude, codex, gemini, opencode, qwen, whatever the PATH order', () => {
    const path = pathWith(['qwen'], ['gemini', 'opencode']);
    const choice = chooseInitAgent(undefined, path);
    expect(choice).toMatchObject({ lines: { agent: 'agent gemini', model: null }, how: 'found', path: expect.stringMatching(/bin1\/gemini$/) as unknown });
    expect(choice.message).toBe(`Agent: gemini, the first agent CLI found on PATH (${choice.path ?? ''}; looked for claude, codex, gemini, opencode, qwen, in that order). \`--agent <name>\` picks another.`);
    expect(chooseInitAgent(undefined, pathWith(['qwen'])).lines.agent).toBe('agent qwen');
  });

  it('ignores a file with the name that is not executable', () => {
    const path = pathWith(['codex']);
    chmodSync(join(path, 'codex'), 0o644);
    expect(chooseInitAgent(undefined, path).how).toBe('default');
  });

  it('with none on PATH writes claude and says how to install it, or to use agent cmd', () => {
    expect(chooseInitAgent(undefined, pathWith([]))).toEqual({
      lines: { agent: 'agent claude', model: null }, how: 'default', path: null,
      message: 'Agent: claude, the default: no agent CLI is on PATH (looked for claude, codex, gemini, opencode, qwen). Install Claude Code with `npm install -g @anthropic-ai/claude-code@2.1.332`, or write `agent cmd <command>` in .loop/yoke.conf to run another tool.',
    });
  });

  it('--agent overrides, installed or not (then saying how to install it)', () => {
    const path = pathWith(['claude', 'opencode']);
    expect(chooseInitAgent('opencode', path)).toMatchObject({ lines: { agent: 'agent opencode' }, how: 'flag', message: `Agent: opencode (--agent), found at ${join(path, 'opencode')}.` });
    expect(chooseInitAgent('qwen', path)).toMatchObject({
      how: 'flag', path: null,
      message: 'Agent: qwen (--agent), but `qwen` is not on PATH: install it with `npm install -g @qwen-code/qwen-code@0.24.4` before `yoke run`.',
    });
  });

  it('--agent with anything but a built-in is a usage error', () => {
    expect(() => chooseInitAgent('aider', '')).toThrow(/^--agent aider is not a built-in agent; use one of: claude, codex, gemini, opencode, qwen\. Nothing was written\.$/);
    expect(() => chooseInitAgent('cmd', '')).toThrow(/write `agent cmd <command>` in \.loop\/yoke\.conf after `yoke init`/);
  });
});

describe('keptAgent', () => {
  it('says which lines came from the previous conf', () => {
    expect(keptAgent({ agent: 'agent codex', model: 'model gpt-5.5' }).message).toBe('Agent: kept `agent codex` and `model gpt-5.5` from the previous yoke.conf.');
    expect(keptAgent({ agent: 'agent cmd ./a.sh', model: null })).toMatchObject({ how: 'kept', path: null, message: 'Agent: kept `agent cmd ./a.sh` from the previous yoke.conf.' });
  });
});
