// The plugin a gated opencode call loads, run as OpenCode runs it (imported, its hook awaited) with
// real gate commands: a call goes on only on an explicit allow; a denial throws its reason; a gate
// that fails, prints nothing or cannot start throws too (fail closed). The hook's question carries
// the tool, its arguments, the call id and the project folder. And the user's OPENCODE_CONFIG_CONTENT
// keeps its own settings and plugins.
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { opencodeGatePluginSource, prepareOpencodeGatePlugin, withGatePlugin } from '../../../effects/gate/opencode-gate-plugin.js';

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

type Hook = (input: { tool: string; sessionID: string; callID: string }, output: { args: unknown }) => Promise<void>;

/** The plugin for `command`, loaded the way OpenCode loads it, and its tool.execute.before hook. */
async function pluginHook(command: string): Promise<Hook> {
  const dir = mkdtempSync(join(tmpdir(), 'yoke-opencode-plugin-'));
  dirs.push(dir);
  const file = join(dir, 'yoke-gate.js');
  writeFileSync(file, opencodeGatePluginSource(command));
  const module = (await import(pathToFileURL(file).href)) as { YokeGate: (ctx: { directory: string }) => Promise<Record<string, Hook>> };
  const hooks = await module.YokeGate({ directory: '/project' });
  return hooks['tool.execute.before']!;
}

const call = { tool: 'bash', sessionID: 's', callID: 'call_1' };

describe('the opencode gate plugin', () => {
  it('asks the gate with the tool, its arguments, the call id and the project folder; an allow lets the call run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'yoke-opencode-question-'));
    dirs.push(dir);
    const asked = join(dir, 'question.json');
    const hook = await pluginHook(`cat > '${asked}'; echo '{"decision":"allow"}'`);
    await expect(hook(call, { args: { command: 'ls' } })).resolves.toBeUndefined();
    expect(JSON.parse(readFileSync(asked, 'utf8'))).toEqual({ tool_name: 'bash', tool_input: { command: 'ls' }, tool_use_id: 'call_1', cwd: '/project' });
  });

  it('a denial throws its reason, which OpenCode gives the model as the tool\'s error', async () => {
    const hook = await pluginHook(`cat >/dev/null; echo '{"decision":"deny","reason":"refused: destructive"}'`);
    await expect(hook(call, { args: { command: 'rm -rf keep' } })).rejects.toThrow(/^refused: destructive$/);
  });

  it.each([
    ['exits non-zero after an allow', `cat >/dev/null; echo '{"decision":"allow"}'; exit 1`, /its gate exited 1/],
    ['prints nothing', 'cat >/dev/null', /its gate exited 0/],
    ['says something else', `cat >/dev/null; echo '{"decision":"ask"}'`, /could not rule on this tool call/],
    ['fails with a message on stderr', 'cat >/dev/null; echo "no socket" >&2; exit 2', /its gate exited 2: no socket/],
  ])('a gate that %s: the call is refused (fail closed)', async (_what, command, message) => {
    const hook = await pluginHook(command);
    await expect(hook(call, { args: {} })).rejects.toThrow(message);
  });

  it('the private plugin: 0700 folder, loaded by OPENCODE_CONFIG_CONTENT after the user\'s own plugins, OPENCODE_PURE off; removed after the call', async () => {
    const made = await prepareOpencodeGatePlugin('yoke gate --agent opencode', { OPENCODE_CONFIG_CONTENT: '{ "model": "x/y", // mine\n "plugin": ["their-plugin"] }' });
    expect(made.warning).toBeNull();
    expect(made.env.OPENCODE_PURE).toBe('false');
    const content = JSON.parse(made.env.OPENCODE_CONFIG_CONTENT!) as { model: string; plugin: string[] };
    expect(content.model).toBe('x/y');
    expect(content.plugin[0]).toBe('their-plugin');
    const file = fileURLToPath(content.plugin[1]!);
    expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
    expect(readFileSync(file, 'utf8')).toBe(opencodeGatePluginSource('yoke gate --agent opencode'));
    await made.cleanup();
    expect(() => statSync(dirname(file))).toThrow();
  });

  it('an unreadable inherited OPENCODE_CONFIG_CONTENT: the plugin alone, and a warning', () => {
    expect(withGatePlugin(undefined, 'file:///g.js')).toEqual({ content: '{"plugin":["file:///g.js"]}', warning: null });
    const broken = withGatePlugin('{ nope', 'file:///g.js');
    expect(broken.content).toBe('{"plugin":["file:///g.js"]}');
    expect(broken.warning).toContain('could not be read');
  });
});
