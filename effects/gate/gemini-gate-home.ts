// The private Gemini CLI home a gated run's gemini call uses (DESIGN §13: hooks go in through the
// CLI's own flags or a private settings location, never the project's .gemini/). Gemini CLI 0.61
// reads hooks only from settings files; its system settings paths are honoured only for files
// owned by root, so yoke points `GEMINI_CLI_HOME` at a fresh 0700 folder instead: its
// `.gemini/settings.json` is the user's own settings with yoke's `BeforeTool` hook added, and
// every other entry of the user's `~/.gemini/` (credentials, memory, history) is a symlink to the
// real one. Checked on the installed CLI (docs/tool-control.md).
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { GEMINI_HOOK_NAME } from '../../machines/retrofit/gate-wiring.js';

/** gemini's own variable for its home (`homedir()` in its bundle). */
export const GEMINI_HOME_ENV = 'GEMINI_CLI_HOME';

/** A prepared private home, and how to remove it. */
export interface GeminiGateHome {
  dir: string;
  /** set when the user's settings could not be read (the hook is installed on its own) */
  warning: string | null;
  cleanup(): Promise<void>;
}

/** The hook group yoke adds: every tool, the gate command, 30 s (gemini's timeout is in ms). */
export function geminiGateHook(command: string): Record<string, unknown> {
  return { matcher: '*', hooks: [{ name: GEMINI_HOOK_NAME, type: 'command', command, timeout: 30_000 }] };
}

/** The user's settings with the gate hook appended to `hooks.BeforeTool` (hooks concatenate across gemini's layers). */
export function withGateHook(settings: Record<string, unknown>, command: string): Record<string, unknown> {
  const hooks = typeof settings.hooks === 'object' && settings.hooks !== null && !Array.isArray(settings.hooks) ? settings.hooks as Record<string, unknown> : {};
  const before: unknown[] = Array.isArray(hooks.BeforeTool) ? (hooks.BeforeTool as unknown[]) : [];
  return { ...settings, hooks: { ...hooks, BeforeTool: [...before, geminiGateHook(command)] } };
}

/** Builds the private home for a call whose environment is `env` (its GEMINI_CLI_HOME or HOME is the user's). */
export async function prepareGeminiGateHome(command: string, env: NodeJS.ProcessEnv): Promise<GeminiGateHome> {
  const userHome = env[GEMINI_HOME_ENV] || env.HOME || homedir();
  const dir = await mkdtemp(join(tmpdir(), 'yoke-gemini-home-'));
  await chmod(dir, 0o700);
  const own = join(dir, '.gemini');
  await mkdir(own, { recursive: true });
  const real = join(userHome, '.gemini');
  let settings: Record<string, unknown> = {};
  let warning: string | null = null;
  if (existsSync(real)) {
    for (const entry of await readdir(real)) {
      if (entry !== 'settings.json') await symlink(join(real, entry), join(own, entry));
    }
    const file = join(real, 'settings.json');
    if (existsSync(file)) {
      try {
        const value: unknown = JSON.parse(await readFile(file, 'utf8'));
        if (typeof value === 'object' && value !== null && !Array.isArray(value)) settings = value as Record<string, unknown>;
        else warning = `${file} is not a JSON object`;
      } catch (error) {
        warning = `${file} could not be read (${error instanceof Error ? error.message : String(error)})`;
      }
    }
  }
  if (existsSync(join(userHome, '.env'))) await symlink(join(userHome, '.env'), join(dir, '.env'));
  await writeFile(join(own, 'settings.json'), `${JSON.stringify(withGateHook(settings, command), null, 2)}\n`, { mode: 0o600 });
  return {
    dir,
    warning: warning === null ? null : `gemini's user settings ${warning}: the call runs with yoke's tool hook and no other user settings.`,
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}
