// The private system settings file a gated run's qwen call uses (DESIGN §13: hooks go in through the
// CLI's own flags or a private settings location, never the project's .qwen/). Qwen Code 0.24 reads
// hooks only from settings files; `QWEN_CODE_SYSTEM_SETTINGS_PATH` names the system layer, which
// outranks the user's and the project's settings and whose `hooks.PreToolUse` groups are added to
// theirs. So each call gets a fresh 0700 folder whose `settings.json` is the system settings qwen
// would have read (the file that variable named, else the platform's own) with yoke's hook appended
// and `disableAllHooks: false`; `QWEN_CODE_SYSTEM_DEFAULTS_PATH` keeps pointing at the defaults file
// next to the real system settings. qwen also turns every hook off in safe mode and bare mode, which
// `QWEN_CODE_SAFE_MODE` and `QWEN_CODE_SIMPLE` switch on from the environment, a project's `.env` or
// a settings `env` included; those fill only variables that are unset or empty, so the call gets
// both set to `0`. Checked on the installed CLI (docs/tool-control.md).
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

/** qwen's variables for its system settings file and the system defaults file. */
export const QWEN_SYSTEM_SETTINGS_ENV = 'QWEN_CODE_SYSTEM_SETTINGS_PATH';
export const QWEN_SYSTEM_DEFAULTS_ENV = 'QWEN_CODE_SYSTEM_DEFAULTS_PATH';

/** Safe mode and bare mode off: either turns every hook off, the gate's included. */
const HOOKS_STAY_ON: Readonly<Record<string, string>> = { QWEN_CODE_SAFE_MODE: '0', QWEN_CODE_SIMPLE: '0' };

/** A prepared private settings file, the variables that point qwen at it, and how to remove it. */
export interface QwenGateSettings {
  /** QWEN_CODE_SYSTEM_SETTINGS_PATH, QWEN_CODE_SYSTEM_DEFAULTS_PATH, and safe and bare mode off, for the call */
  env: Record<string, string>;
  /** set when the system settings could not be read (the hook is installed on its own) */
  warning: string | null;
  cleanup(): Promise<void>;
}

/** Where qwen reads its system settings when the variable is unset (its `getSystemSettingsPath`). */
export function platformSystemSettings(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return '/Library/Application Support/QwenCode/settings.json';
  if (platform === 'win32') return 'C:\\ProgramData\\qwen-code\\settings.json';
  return '/etc/qwen-code/settings.json';
}

/** The hook group yoke adds: every tool, the gate command, 30 s (qwen's command-hook timeout is in seconds). */
export function qwenGateHook(command: string): Record<string, unknown> {
  return { matcher: '*', hooks: [{ name: 'yoke-gate', type: 'command', command, timeout: 30 }] };
}

/**
 * `settings` with the gate hook appended to `hooks.PreToolUse` and hooks switched on: in the system
 * layer, `disableAllHooks: false` wins over a `true` in the user's or the project's settings, which
 * would otherwise let every call run unruled.
 */
export function withQwenGateHook(settings: Record<string, unknown>, command: string): Record<string, unknown> {
  const hooks = typeof settings.hooks === 'object' && settings.hooks !== null && !Array.isArray(settings.hooks) ? settings.hooks as Record<string, unknown> : {};
  const before: unknown[] = Array.isArray(hooks.PreToolUse) ? (hooks.PreToolUse as unknown[]) : [];
  return { ...settings, disableAllHooks: false, hooks: { ...hooks, PreToolUse: [...before, qwenGateHook(command)] } };
}

/** Writes the private settings for a call whose environment is `env`. */
export async function prepareQwenGateSettings(command: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): Promise<QwenGateSettings> {
  const system = env[QWEN_SYSTEM_SETTINGS_ENV] || platformSystemSettings(platform);
  const defaults = env[QWEN_SYSTEM_DEFAULTS_ENV] || join(dirname(system), 'system-defaults.json');
  let settings: Record<string, unknown> = {};
  let warning: string | null = null;
  if (existsSync(system)) {
    try {
      // qwen strips comments from its settings files before parsing them
      const errors: ParseError[] = [];
      const value: unknown = parse(await readFile(system, 'utf8'), errors);
      if (errors[0] !== undefined) warning = `${system} could not be read (${printParseErrorCode(errors[0].error)} at offset ${errors[0].offset})`;
      else if (typeof value === 'object' && value !== null && !Array.isArray(value)) settings = value as Record<string, unknown>;
      else warning = `${system} is not a JSON object`;
    } catch (error) {
      warning = `${system} could not be read (${error instanceof Error ? error.message : String(error)})`;
    }
  }
  const dir = await mkdtemp(join(tmpdir(), 'yoke-qwen-settings-'));
  await chmod(dir, 0o700);
  const file = join(dir, 'settings.json');
  await writeFile(file, `${JSON.stringify(withQwenGateHook(settings, command), null, 2)}\n`, { mode: 0o600 });
  return {
    env: { [QWEN_SYSTEM_SETTINGS_ENV]: file, [QWEN_SYSTEM_DEFAULTS_ENV]: defaults, ...HOOKS_STAY_ON },
    warning: warning === null ? null : `qwen's system settings ${warning}: the call runs with yoke's tool hook and no other system settings.`,
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}
