import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../config/parse-config.js';
import type { AgentRole } from '../../../config/lifecycle-catalog.js';
import type { Config } from '../../../config/types.js';
import { checkAgentAvailability, findOnPath, usedBuiltInAgents } from '../../../effects/adapters/agent-availability.js';
import { LIFECYCLE_REGISTRY, LIFECYCLES } from '../../../machines/lifecycles/registry.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'yoke-availability-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function config(text: string): Config {
  const parsed = parseConfig(text, 'yoke.conf', LIFECYCLE_REGISTRY).config;
  if (!parsed) throw new Error(`bad test config: ${text}`);
  return parsed;
}

/** The config of `text` and the roles its lifecycle calls (what `yoke run` and `yoke config check` pass). */
function withRoles(text: string): [Config, readonly AgentRole[]] {
  const parsed = config(text);
  return [parsed, LIFECYCLES[parsed.mode]?.rolesCalled(parsed) ?? []];
}

async function fakeBinary(name: string, script: string, mode = 0o755): Promise<void> {
  await writeFile(join(dir, name), `#!/bin/sh\n${script}\n`, { mode });
}

describe('usedBuiltInAgents', () => {
  it('lists each built-in CLI once, with the roles it plays in the mode', () => {
    expect([...usedBuiltInAgents(...withRoles('mode saga\nagent claude\njudge-agent codex\n'))]).toEqual([['claude', ['worker', 'scoper']], ['codex', ['judge']]]);
    expect([...usedBuiltInAgents(...withRoles('mode brute\nagent cmd ./a.sh\n'))]).toEqual([]);
    // a judge-agent has no effect in loop mode, so its CLI is not needed
    expect([...usedBuiltInAgents(...withRoles('mode loop\nagent gemini\njudge-agent codex\n'))]).toEqual([['gemini', ['worker']]]);
  });
});

describe('checkAgentAvailability', () => {
  it('finds a CLI on PATH with its --version, and names the npm package of a missing one', async () => {
    await fakeBinary('claude', 'echo "2.1.332 (Claude Code)"');
    const [claude, codex] = await checkAgentAvailability(...withRoles('mode brute\nagent claude\njudge-agent codex\n'), { PATH: `/nonexistent:${dir}` });
    expect(claude).toEqual({
      kind: 'claude', roles: ['worker'], found: true, path: join(dir, 'claude'), version: '2.1.332 (Claude Code)',
      message: `claude: ${join(dir, 'claude')}, 2.1.332 (Claude Code)`,
    });
    expect(codex).toEqual({
      kind: 'codex', roles: ['judge'], found: false,
      message: 'the codex CLI (`codex`, used as judge) is not on PATH; install it with `npm install -g @openai/codex@0.171.0` or change the agent in yoke.conf',
    });
  });

  it('notes a version other than the tested one, and a CLI that does not answer --version', async () => {
    await fakeBinary('gemini', 'echo 0.70.1');
    await fakeBinary('codex', 'exit 3');
    const [gemini] = await checkAgentAvailability(...withRoles('mode loop\nagent gemini\n'), { PATH: dir });
    expect(gemini?.message).toBe(`gemini: ${join(dir, 'gemini')}, 0.70.1 (yoke was tested with 0.61.0)`);
    const [codex] = await checkAgentAvailability(...withRoles('mode loop\nagent codex\n'), { PATH: dir });
    expect(codex).toMatchObject({ found: true, version: null });
    expect(codex?.message).toMatch(/did not answer `--version`/);
  });

  it('can skip --version (yoke run only needs the binary)', async () => {
    await fakeBinary('claude', 'sleep 30');
    const started = Date.now();
    const [claude] = await checkAgentAvailability(...withRoles('mode loop\nagent claude\n'), { PATH: dir }, false);
    expect(claude).toEqual({ kind: 'claude', roles: ['worker'], found: true, path: join(dir, 'claude'), version: null, message: `claude: ${join(dir, 'claude')}` });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('skips files that are not executable, and cmd agents entirely', async () => {
    await fakeBinary('claude', 'echo 2.1.332', 0o644);
    expect(findOnPath('claude', dir)).toBeNull();
    expect(await checkAgentAvailability(...withRoles('mode loop\nagent cmd claude -p\n'), { PATH: dir })).toEqual([]);
  });
});
