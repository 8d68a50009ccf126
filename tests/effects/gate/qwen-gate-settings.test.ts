// The private system settings of a gated qwen call: the system settings qwen would have read plus
// yoke's PreToolUse hook with hooks switched on, safe and bare mode off, the defaults file still found
// where it was, and the real files never touched.
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { platformSystemSettings, prepareQwenGateSettings, withQwenGateHook } from '../../../effects/gate/qwen-gate-settings.js';

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

const hook = { matcher: '*', hooks: [{ name: 'yoke-gate', type: 'command', command: 'yoke gate --agent qwen', timeout: 30 }] };

describe('the private qwen settings of a gated call', () => {
  it('keeps the system settings (comments allowed, as qwen allows them) and their hooks, appends the gate, turns hooks on, and leaves the real file as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'yoke-qwen-system-'));
    dirs.push(dir);
    const system = join(dir, 'settings.json');
    const text = '// the operator\'s\n{ "ui": { "theme": "x" }, "disableAllHooks": true, "hooks": { "PreToolUse": [{ "matcher": "x", "hooks": [] }], "Stop": [] } }\n';
    await writeFile(system, text);
    const made = await prepareQwenGateSettings('yoke gate --agent qwen', { QWEN_CODE_SYSTEM_SETTINGS_PATH: system });
    expect(made.warning).toBeNull();
    const file = made.env.QWEN_CODE_SYSTEM_SETTINGS_PATH!;
    expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ ui: { theme: 'x' }, disableAllHooks: false, hooks: { PreToolUse: [{ matcher: 'x', hooks: [] }, hook], Stop: [] } });
    expect(made.env).toEqual({ QWEN_CODE_SYSTEM_SETTINGS_PATH: file, QWEN_CODE_SYSTEM_DEFAULTS_PATH: join(dir, 'system-defaults.json'), QWEN_CODE_SAFE_MODE: '0', QWEN_CODE_SIMPLE: '0' });
    expect(readFileSync(system, 'utf8')).toBe(text);
    await made.cleanup();
    expect(() => statSync(dirname(file))).toThrow();
  });

  it('with no system settings, the hook alone; the defaults stay next to the platform\'s system file, or where the variable said', async () => {
    const made = await prepareQwenGateSettings('g', {}, 'linux');
    dirs.push(dirname(made.env.QWEN_CODE_SYSTEM_SETTINGS_PATH!));
    expect(platformSystemSettings('linux')).toBe('/etc/qwen-code/settings.json');
    expect(made.env.QWEN_CODE_SYSTEM_DEFAULTS_PATH).toBe('/etc/qwen-code/system-defaults.json');
    expect(JSON.parse(readFileSync(made.env.QWEN_CODE_SYSTEM_SETTINGS_PATH!, 'utf8'))).toEqual(withQwenGateHook({}, 'g'));
    const named = await prepareQwenGateSettings('g', { QWEN_CODE_SYSTEM_DEFAULTS_PATH: '/opt/d.json' }, 'linux');
    dirs.push(dirname(named.env.QWEN_CODE_SYSTEM_SETTINGS_PATH!));
    expect(named.env.QWEN_CODE_SYSTEM_DEFAULTS_PATH).toBe('/opt/d.json');
  });

  it('with unreadable system settings, installs the hook alone and says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'yoke-qwen-system-'));
    dirs.push(dir);
    await writeFile(join(dir, 'settings.json'), '{ not json');
    const made = await prepareQwenGateSettings('g', { QWEN_CODE_SYSTEM_SETTINGS_PATH: join(dir, 'settings.json') });
    dirs.push(dirname(made.env.QWEN_CODE_SYSTEM_SETTINGS_PATH!));
    expect(made.warning).toContain('could not be read');
    expect(JSON.parse(readFileSync(made.env.QWEN_CODE_SYSTEM_SETTINGS_PATH!, 'utf8'))).toEqual(withQwenGateHook({}, 'g'));
  });
});
