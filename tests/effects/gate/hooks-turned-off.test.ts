// The settings that would keep a CLI from asking yoke's gate, in the files each CLI reads (keys and
// layers read from the installed CLIs): found, with the file and the setting; absent or harmless: null.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hooksOffMessage, hooksTurnedOff, type SystemDirs } from '../../../effects/gate/hooks-turned-off.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A project, a home and administrator folders, with `files` written (paths under `project/`, `home/`, `etc/`). */
function machine(files: Record<string, string>): { base: string; root: string; home: string; system: SystemDirs } {
  const base = mkdtempSync(join(tmpdir(), 'yoke-hooks-off-'));
  dirs.push(base);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(base, path)), { recursive: true });
    writeFileSync(join(base, path), text);
  }
  const etc = join(base, 'etc');
  return { base, root: join(base, 'project'), home: join(base, 'home'), system: { claude: join(etc, 'claude-code'), gemini: join(etc, 'gemini-cli'), codex: join(etc, 'codex') } };
}

const off = (agent: string, files: Record<string, string>) => {
  const { base, root, home, system } = machine(files);
  const found = hooksTurnedOff(agent, root, { HOME: home }, system);
  return found === null ? null : { ...found, file: relative(base, found.file) };
};

describe('settings that switch a CLI\'s hooks off', () => {
  it('claude: disableAllHooks in the project, local, user or managed settings; allowManagedHooksOnly and strictPluginOnlyCustomization only from the administrator', () => {
    expect(off('claude', { 'project/.claude/settings.json': '{"disableAllHooks": true}' })).toMatchObject({ file: 'project/.claude/settings.json', setting: '"disableAllHooks": true' });
    expect(off('claude', { 'project/.claude/settings.local.json': '{"disableAllHooks": "yes"}' })).toMatchObject({ file: 'project/.claude/settings.local.json' });
    expect(off('claude', { 'home/.claude/settings.json': '{"disableAllHooks": true}' })).toMatchObject({ file: 'home/.claude/settings.json' });
    expect(off('claude', { 'etc/claude-code/managed-settings.d/10-org.json': '{"disableAllHooks": true}' })).toMatchObject({ file: 'etc/claude-code/managed-settings.d/10-org.json' });
    expect(off('claude', { 'etc/claude-code/managed-settings.json': '{"allowManagedHooksOnly": true}' })).toMatchObject({ setting: '"allowManagedHooksOnly": true' });
    expect(off('claude', { 'etc/claude-code/managed-settings.json': '{"strictPluginOnlyCustomization": ["hooks"]}' })).toMatchObject({ setting: '"strictPluginOnlyCustomization": ["hooks"]' });
    expect(off('claude', { 'project/.claude/settings.json': '{"allowManagedHooksOnly": true, "disableAllHooks": false}' })).toBeNull();
    expect(off('claude', { 'etc/claude-code/managed-settings.json': '{"strictPluginOnlyCustomization": ["skills"]}' })).toBeNull();
  });

  it('claude: $CLAUDE_CONFIG_DIR is the user\'s folder when set', () => {
    const { base, root, home, system } = machine({ 'conf/settings.json': '{"disableAllHooks": true}', 'home/.claude/settings.json': '{}' });
    expect(hooksTurnedOff('claude', root, { HOME: home, CLAUDE_CONFIG_DIR: join(base, 'conf') }, system)?.file).toBe(join(base, 'conf', 'settings.json'));
  });

  it('gemini: hooksConfig.enabled false as merged (a later layer switching it back on wins), or yoke-gate among the disabled hooks', () => {
    expect(off('gemini', { 'project/.gemini/settings.json': '{"hooksConfig": {"enabled": false}}' })).toMatchObject({ file: 'project/.gemini/settings.json', setting: '"hooksConfig": {"enabled": false}' });
    expect(off('gemini', { 'home/.gemini/settings.json': '// mine\n{"hooksConfig": {"enabled": false,},}' })).toMatchObject({ file: 'home/.gemini/settings.json' });
    expect(off('gemini', { 'home/.gemini/settings.json': '{"hooksConfig": {"enabled": false}}', 'project/.gemini/settings.json': '{"hooksConfig": {"enabled": true}}' })).toBeNull();
    expect(off('gemini', { 'etc/gemini-cli/settings.json': '{"hooksConfig": {"enabled": false}}', 'project/.gemini/settings.json': '{"hooksConfig": {"enabled": true}}' })).toMatchObject({ file: 'etc/gemini-cli/settings.json' });
    expect(off('gemini', { 'etc/gemini-cli/system-defaults.json': '{"hooksConfig": {"disabled": ["yoke-gate"]}}' })).toMatchObject({ setting: '"hooksConfig": {"disabled": ["yoke-gate"]}' });
    expect(off('gemini', { 'project/.gemini/settings.json': '{"hooksConfig": {"disabled": ["lint"]}}' })).toBeNull();
  });

  it('codex: only the administrator\'s requirements.toml (yoke overrides [features] hooks on the command line)', () => {
    expect(off('codex', { 'etc/codex/requirements.toml': 'allow_managed_hooks_only = true\n' })).toMatchObject({ file: 'etc/codex/requirements.toml', setting: 'allow_managed_hooks_only = true' });
    expect(off('codex', { 'etc/codex/requirements.toml': '[features]\nhooks = false\n' })).toMatchObject({ setting: '[features] hooks = false' });
    expect(off('codex', { 'home/.codex/config.toml': '[features]\nhooks = false\n' })).toBeNull();
  });

  it('the refusal names the file, the setting and what to do in one sentence', () => {
    const message = hooksOffMessage({ file: '.claude/settings.json', setting: '"disableAllHooks": true', effect: 'Claude Code would run none of the hooks yoke passes it' }, 'claude', 'on');
    expect(message).toBe('.claude/settings.json sets "disableAllHooks": true: Claude Code would run none of the hooks yoke passes it, so yoke could not rule on claude\'s tool calls (tool-control is on); remove that setting, or write `tool-control off` in .loop/yoke.conf, then run again.');
  });
});
