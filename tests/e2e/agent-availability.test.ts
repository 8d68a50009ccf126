// `yoke config check` and `yoke run` with a built-in agent: the CLI must be on PATH (built CLI, fake binaries).
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findOnPath } from '../../effects/adapters/agent-availability.js';
import { makeWorkspace, runYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 30_000;
const SYSTEM_PATH = '/usr/local/bin:/usr/bin:/bin';
const workspaces: Workspace[] = [];
afterEach(async () => {
  await Promise.all(workspaces.splice(0).map((ws) => ws.cleanup()));
});

async function setup(conf: string): Promise<{ ws: Workspace; bin: string }> {
  const ws = await makeWorkspace({ '.loop/yoke.conf': conf, '.loop/plan.md': 'plan\n', '.loop/protocol.md': 'protocol\n' });
  workspaces.push(ws);
  const bin = ws.side('bin');
  await mkdir(bin);
  return { ws, bin };
}

describe.skipIf(findOnPath('claude', SYSTEM_PATH) !== null || findOnPath('codex', SYSTEM_PATH) !== null)('built-in agent CLIs must be installed', () => {
  it('config check names the CLI it found and its version', async () => {
    const { ws, bin } = await setup('mode loop\nagent claude\n');
    await writeFile(join(bin, 'claude'), '#!/bin/sh\necho "2.1.332 (Claude Code)"\n', { mode: 0o755 });
    const result = await runYoke(ws, ['config', 'check'], { env: { PATH: `${bin}:${SYSTEM_PATH}` } });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain(`claude: ${join(bin, 'claude')}, 2.1.332 (Claude Code)`);
  }, TIMEOUT);

  it('config check exits 2 for a missing CLI, in text and --json', async () => {
    const { ws, bin } = await setup('mode brute\nagent cmd ./agent.sh\njudge-agent codex\n');
    const env = { PATH: `${bin}:${SYSTEM_PATH}` };
    const text = await runYoke(ws, ['config', 'check'], { env });
    expect(text.exitCode).toBe(2);
    expect(text.stderr).toContain('yoke: the codex CLI (`codex`, used as judge) is not on PATH; install it with `npm install -g @openai/codex@0.171.0`');
    const json = await runYoke(ws, ['config', 'check', '--json'], { env });
    expect(json.exitCode).toBe(2);
    const report = JSON.parse(json.stdout) as { valid: boolean; agents: { kind: string; found: boolean }[] };
    expect(report.valid).toBe(true);
    expect(report.agents).toEqual([expect.objectContaining({ kind: 'codex', roles: ['judge'], found: false })]);
  }, TIMEOUT);

  it('config check warns when OpenCode would first install its plugin package before a gated call; quiet once it is installed, and with tool-control off', async () => {
    const { ws, bin } = await setup('mode loop\nagent opencode\n');
    await writeFile(join(bin, 'opencode'), '#!/bin/sh\necho 1.18.33\n', { mode: 0o755 });
    const config = ws.side('xdg');
    const env = { PATH: `${bin}:${SYSTEM_PATH}`, HOME: ws.side('home'), XDG_CONFIG_HOME: config };
    const warned = await runYoke(ws, ['config', 'check'], { env });
    expect(warned.exitCode, warned.stderr).toBe(0);
    expect(warned.stderr).toContain(`yoke: warning: OpenCode will install @opencode-ai/plugin from npm into ${join(config, 'opencode')} before an opencode call`);
    const dir = join(config, 'opencode');
    await mkdir(join(dir, 'node_modules'), { recursive: true });
    await writeFile(join(dir, 'package-lock.json'), JSON.stringify({ packages: { '': { dependencies: { '@opencode-ai/plugin': '1.18.33' } } } }));
    const installed = await runYoke(ws, ['config', 'check', '--json'], { env });
    expect((JSON.parse(installed.stdout) as { warnings: string[] }).warnings).toEqual([]);
    await writeFile(join(dir, 'package.json'), JSON.stringify({ dependencies: { 'left-pad': '1' } }));
    const added = await runYoke(ws, ['config', 'check', '--json'], { env });
    expect((JSON.parse(added.stdout) as { warnings: string[] }).warnings).toHaveLength(1);
    await writeFile(ws.abs('.loop/yoke.conf'), 'mode loop\nagent opencode\ntool-control off\n');
    const off = await runYoke(ws, ['config', 'check'], { env });
    expect(off.stderr).not.toContain('warning');
  }, TIMEOUT);

  it('run refuses a missing CLI with exit 2 before anything is journaled', async () => {
    const { ws, bin } = await setup('mode loop\nagent claude\n');
    const result = await runYoke(ws, ['run'], { env: { PATH: `${bin}:${SYSTEM_PATH}` } });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^yoke: the claude CLI \(`claude`, used as worker\) is not on PATH; install it with `npm install -g @anthropic-ai\/claude-code@2\.1\.332` or change the agent in yoke\.conf; nothing was run\./);
    expect(existsSync(ws.abs('.loop/.journal'))).toBe(false);
  }, TIMEOUT);
});
