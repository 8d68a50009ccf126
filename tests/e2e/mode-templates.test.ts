// `yoke init <mode>` for every mode writes a workspace that `yoke config check` accepts, with the
// first agent CLI installed (built CLI); `yoke mode` keeps the workspace's agent. The agent CLIs
// are stand-in scripts on a PATH from which any real one is left out.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILT_IN_AGENT_KINDS } from '../../config/types.js';
import { BUILT_IN_AGENTS } from '../../effects/adapters/built-in-agents.js';
import { makeStashWorkspace, yokeJson, yokeOk } from '../support/stash-workspace.js';
import type { Workspace } from '../support/workspace.js';
import { LIFECYCLE_REGISTRY } from '../../machines/lifecycles/registry.js';

const workspaces: Workspace[] = [];
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(workspaces.map((ws) => ws.cleanup()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The test's PATH without any directory holding a real agent CLI, after a folder of stand-ins for `clis`. */
function pathWith(clis: Array<(typeof BUILT_IN_AGENT_KINDS)[number]>): string {
  const bin = mkdtempSync(join(tmpdir(), 'yoke-init-bin-'));
  dirs.push(bin);
  for (const kind of clis) {
    const file = join(bin, BUILT_IN_AGENTS[kind].binary);
    writeFileSync(file, `#!/bin/sh\necho "${BUILT_IN_AGENTS[kind].testedVersion}"\n`);
    chmodSync(file, 0o755);
  }
  const real = (process.env.PATH ?? '').split(delimiter).filter((dir) => dir !== '' && BUILT_IN_AGENT_KINDS.every((kind) => !existsSync(join(dir, BUILT_IN_AGENTS[kind].binary))));
  return [bin, ...real].join(delimiter);
}

async function workspace(): Promise<Workspace> {
  const ws = await makeStashWorkspace();
  workspaces.push(ws);
  return ws;
}

interface InitJson {
  mode: string;
  written: string[];
  agent: { line: string; how: string; path: string | null };
}

describe('yoke init <mode>', () => {
  it.each(LIFECYCLE_REGISTRY.map((lifecycle) => lifecycle.name))('%s: writes its templates and the result passes `yoke config check` with no issue', async (mode) => {
    const ws = await workspace();
    const env = { PATH: pathWith(['claude']) };
    const init = await yokeJson<InitJson>(ws, ['init', mode], env);
    expect(init.mode).toBe(mode);
    expect(init.written).toContain('.loop/yoke.conf');
    const check = await yokeJson<{ valid: boolean; issues: unknown[]; config: { mode: string; agent: unknown }; agents: Array<{ kind: string; found: boolean }> }>(ws, ['config', 'check'], env);
    expect(check).toMatchObject({ valid: true, issues: [], config: { mode, agent: { kind: 'claude' } } });
    expect(check.agents.map((agent) => [agent.kind, agent.found])).toEqual([['claude', true]]);
  }, 30_000);
});

describe('yoke init says what to write next', () => {
  it('names the file the work is described in: plan.md, goal.md, prd.yaml; saga\'s spec files (its plan is the scoper\'s)', async () => {
    const ws = await workspace();
    const env = { PATH: pathWith(['claude']) };
    const next = async (mode: string): Promise<string> => /^Next: .*$/m.exec((await yokeOk(ws, ['init', mode, '--force'], 0, env)).stdout)?.[0] ?? '(no next step)';
    expect(await next('loop')).toBe('Next: describe the work in .loop/plan.md, set the guards in .loop/yoke.conf, then `yoke run`.');
    expect(await next('goal')).toBe('Next: describe the work in .loop/goal.md, set the guards in .loop/yoke.conf, then `yoke run`.');
    expect(await next('stories')).toBe('Next: describe the work in .loop/prd.yaml, set the guards in .loop/yoke.conf, then `yoke run`.');
    expect(await next('saga')).toBe('Next: fill in .loop/protocol.md, .loop/specification.md, .loop/judge.md, set the guards in .loop/yoke.conf, then `yoke run`.');
  }, 30_000);
});

describe('yoke init picks the agent', () => {
  it('writes the first built-in CLI installed (claude, codex, gemini, opencode, qwen) and says which and why', async () => {
    const ws = await workspace();
    const env = { PATH: pathWith(['qwen', 'codex']) };
    const init = await yokeOk(ws, ['init', 'loop'], 0, env);
    const conf = await ws.read('.loop/yoke.conf');
    expect(conf.split('\n').filter((line) => /^agent /.test(line))).toEqual(['agent codex']);
    expect(conf).toContain('# agent claude\n# agent gemini\n# agent opencode\n# agent qwen\n');
    expect(init.stdout).toMatch(/^Agent: codex, the first agent CLI found on PATH \(\/.+\/codex; looked for claude, codex, gemini, opencode, qwen, in that order\)\. `--agent <name>` picks another\.$/m);
    const check = await yokeJson<{ config: { agent: unknown } }>(ws, ['config', 'check'], env);
    expect(check.config.agent).toEqual({ kind: 'codex' });
  }, 30_000);

  it('--agent overrides the choice, and --json says how it was made', async () => {
    const ws = await workspace();
    const init = await yokeJson<InitJson>(ws, ['init', 'brute', '--agent', 'opencode'], { PATH: pathWith(['claude']) });
    expect(init.agent).toEqual({ line: 'agent opencode', how: 'flag', path: null });
    expect(await ws.read('.loop/yoke.conf')).toMatch(/^agent opencode$/m);
  }, 30_000);

  it('with no agent CLI installed it writes agent claude and says how to install it or use agent cmd', async () => {
    const ws = await workspace();
    const init = await yokeOk(ws, ['init', 'loop'], 0, { PATH: pathWith([]) });
    expect(await ws.read('.loop/yoke.conf')).toMatch(/^agent claude$/m);
    expect(init.stdout).toContain('Agent: claude, the default: no agent CLI is on PATH (looked for claude, codex, gemini, opencode, qwen). Install Claude Code with `npm install -g @anthropic-ai/claude-code@2.1.332`, or write `agent cmd <command>` in .loop/yoke.conf to run another tool.\n');
  }, 30_000);

  it('an unknown --agent is a usage error (exit 2) and nothing is written', async () => {
    const ws = await workspace();
    const init = await yokeOk(ws, ['init', 'loop', '--agent', 'aider'], 2, { PATH: pathWith([]) });
    expect(init.stderr).toMatch(/--agent aider is not a built-in agent; use one of: claude, codex, gemini, opencode, qwen\. Nothing was written\./);
    expect(await ws.exists('.loop/yoke.conf')).toBe(false);
  }, 30_000);
});

describe('yoke mode keeps the workspace\'s agent', () => {
  it('the new mode\'s fresh conf has the old agent and model lines, whatever is on PATH', async () => {
    const ws = await workspace();
    const env = { PATH: pathWith(['claude', 'gemini']) };
    await yokeOk(ws, ['init', 'loop', '--agent', 'gemini'], 0, env);
    await ws.write('.loop/yoke.conf', (await ws.read('.loop/yoke.conf')).replace('# model <name>', 'model gemini-2.5-pro'));
    const switched = await yokeOk(ws, ['mode', 'saga'], 0, env);
    expect(switched.stdout).toContain('Agent: kept `agent gemini` and `model gemini-2.5-pro` from the previous yoke.conf.\n');
    const conf = await ws.read('.loop/yoke.conf');
    expect(conf).toMatch(/^mode saga$/m);
    expect(conf.split('\n').filter((line) => /^(agent|model) /.test(line))).toEqual(['agent gemini', 'model gemini-2.5-pro']);
    const check = await yokeJson<{ valid: boolean; issues: unknown[] }>(ws, ['config', 'check'], env);
    expect(check).toMatchObject({ valid: true, issues: [] });
  }, 30_000);

  it('a workspace without a conf gets the agent init would pick', async () => {
    const ws = await workspace();
    mkdirSync(join(ws.path, '.loop'), { recursive: true });
    writeFileSync(join(ws.path, '.loop', 'plan.md'), 'a plan\n');
    const switched = await yokeOk(ws, ['mode', 'brute'], 0, { PATH: pathWith(['opencode']) });
    expect(switched.stdout).toMatch(/^Agent: opencode, the first agent CLI found on PATH/m);
    expect(await ws.read('.loop/yoke.conf')).toMatch(/^agent opencode$/m);
  }, 30_000);
});
