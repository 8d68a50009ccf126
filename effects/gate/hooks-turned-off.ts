// Settings that would keep a CLI from calling yoke's gate (DESIGN §13): a run wires its hook per
// call, but each CLI also reads its user's, its project's and its administrator's settings, and a
// few keys there switch every hook off (or every hook but the administrator's). yoke looks at the
// same files the CLI reads before it starts the agent, and refuses to run it with tool control on.
// Keys and files were read from the installed CLIs (docs/tool-control.md):
// - Claude Code 2.1.332: `disableAllHooks` in any layer (user `$CLAUDE_CONFIG_DIR` or `~/.claude`,
//   project, local, managed `/etc/claude-code/managed-settings.json` and `managed-settings.d/*.json`);
//   `allowManagedHooksOnly: true` and `strictPluginOnlyCustomization` (true, or a list naming
//   "hooks") in the managed layer.
// - Gemini CLI 0.61: `hooksConfig.enabled: false` as merged over system defaults, user, workspace and
//   system settings (later wins); `hooksConfig.disabled` (merged as a union) naming yoke's hook.
// - Codex 0.171: `allow_managed_hooks_only = true` or `[features] hooks = false` in
//   `/etc/codex/requirements.toml` (user and project config cannot: yoke passes `-c features.hooks=true`).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { GEMINI_HOOK_NAME } from '../../machines/retrofit/gate-wiring.js';

/** The setting that turns the hooks off, and the file it is in. */
export interface HooksTurnedOff {
  file: string;
  setting: string;
  /** what the CLI then does, in a few words */
  effect: string;
}

/** Where the administrators' files live (the CLIs' own Linux defaults); a parameter so tests can point elsewhere. */
export interface SystemDirs {
  claude: string;
  gemini: string;
  codex: string;
}

const LINUX_SYSTEM_DIRS: SystemDirs = { claude: '/etc/claude-code', gemini: '/etc/gemini-cli', codex: '/etc/codex' };

/**
 * The first setting that would keep `agent` from calling its hook, for a call in `root` with `env`
 * (the call's environment), or null.
 * @example hooksTurnedOff('claude', '/p', { HOME: '/h' }) // null, or { file: '/p/.claude/settings.json', setting: '"disableAllHooks": true', … }
 */
export function hooksTurnedOff(agent: string, root: string, env: NodeJS.ProcessEnv, system: SystemDirs = LINUX_SYSTEM_DIRS): HooksTurnedOff | null {
  switch (agent) {
    case 'claude': return claudeHooksOff(root, env, system.claude);
    case 'gemini': return geminiHooksOff(root, env, system.gemini);
    case 'codex': return codexHooksOff(system.codex);
    default: return null;
  }
}

function claudeHooksOff(root: string, env: NodeJS.ProcessEnv, systemDir: string): HooksTurnedOff | null {
  const userDir = env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude');
  const managed = [join(systemDir, 'managed-settings.json'), ...jsonFilesIn(join(systemDir, 'managed-settings.d'))];
  const effect = 'Claude Code would run none of the hooks yoke passes it';
  for (const file of [join(userDir, 'settings.json'), join(root, '.claude', 'settings.json'), join(root, '.claude', 'settings.local.json'), ...managed]) {
    const settings = readJsonObject(file);
    // claude reads any value but undefined, null, false and "false" as on
    const value = settings?.disableAllHooks;
    if (value !== undefined && value !== null && value !== false && value !== 'false') return { file, setting: `"disableAllHooks": ${JSON.stringify(value)}`, effect };
  }
  for (const file of managed) {
    const settings = readJsonObject(file);
    if (settings?.allowManagedHooksOnly === true) return { file, setting: '"allowManagedHooksOnly": true', effect: 'Claude Code would run only the administrator\'s hooks, not the one yoke passes it' };
    const strict = settings?.strictPluginOnlyCustomization;
    if (strict === true || (Array.isArray(strict) && strict.includes('hooks'))) {
      return { file, setting: `"strictPluginOnlyCustomization": ${JSON.stringify(strict)}`, effect: 'Claude Code would run only the administrator\'s and plugins\' hooks, not the one yoke passes it' };
    }
  }
  return null;
}

function geminiHooksOff(root: string, env: NodeJS.ProcessEnv, systemDir: string): HooksTurnedOff | null {
  const systemFile = env.GEMINI_CLI_SYSTEM_SETTINGS_PATH || join(systemDir, 'settings.json');
  const defaultsFile = env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH || join(systemDir, 'system-defaults.json');
  const home = env.GEMINI_CLI_HOME || env.HOME || homedir();
  // gemini merges system defaults < user < workspace < system (it skips the workspace when it is the home folder)
  const layers = [defaultsFile, join(home, '.gemini', 'settings.json'), ...(root === home ? [] : [join(root, '.gemini', 'settings.json')]), systemFile];
  let enabled: { value: unknown; file: string } | null = null;
  for (const file of layers) {
    const hooksConfig = objectValue(readJsonObject(file)?.hooksConfig);
    if (hooksConfig === null) continue;
    if (hooksConfig.enabled !== undefined) enabled = { value: hooksConfig.enabled, file };
    const disabled: unknown = hooksConfig.disabled;
    // gemini names a hook by its `name` when it has one, as yoke's has
    if (Array.isArray(disabled) && disabled.includes(GEMINI_HOOK_NAME)) {
      return { file, setting: `"hooksConfig": {"disabled": [${JSON.stringify(GEMINI_HOOK_NAME)}]}`, effect: 'Gemini CLI would skip the hook yoke adds' };
    }
  }
  if (enabled !== null && enabled.value === false) return { file: enabled.file, setting: '"hooksConfig": {"enabled": false}', effect: 'Gemini CLI would run no hooks at all' };
  return null;
}

function codexHooksOff(systemDir: string): HooksTurnedOff | null {
  const file = join(systemDir, 'requirements.toml');
  if (!existsSync(file)) return null;
  let requirements: Record<string, unknown>;
  try {
    requirements = parseToml(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
  if (requirements.allow_managed_hooks_only === true) return { file, setting: 'allow_managed_hooks_only = true', effect: 'Codex would run only the administrator\'s hooks, not the one yoke passes it' };
  const features = objectValue(requirements.features);
  for (const key of ['hooks', 'codex_hooks']) {
    if (features?.[key] === false) return { file, setting: `[features] ${key} = false`, effect: 'Codex would run no hooks at all' };
  }
  return null;
}

/** The JSON object in `file` (comments and trailing commas allowed, as gemini allows them), or null when absent or unreadable. */
function readJsonObject(file: string): Record<string, unknown> | null {
  if (!existsSync(file)) return null;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  return errors.length > 0 ? null : objectValue(value);
}

function objectValue(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function jsonFilesIn(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => name.endsWith('.json') && !name.startsWith('.')).sort().map((name) => join(dir, name));
  } catch {
    return [];
  }
}

/**
 * The sentence yoke refuses with: the file, the setting, what the CLI would do, and what to do.
 * @example hooksOffMessage({ file: '.claude/settings.json', setting: '"disableAllHooks": true', effect: '…' }, 'claude', 'on')
 */
export function hooksOffMessage(off: HooksTurnedOff, agent: string, setting: string): string {
  return `${off.file} sets ${off.setting}: ${off.effect}, so yoke could not rule on ${agent}'s tool calls (tool-control is ${setting}); remove that setting, or write \`tool-control off\` in .loop/yoke.conf, then run again.`;
}
