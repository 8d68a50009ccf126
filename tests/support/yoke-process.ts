// Runs the shipped yoke CLI (the bundle, `dist/bundle/yoke.js`) as a real subprocess, as a user would.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

/** The repository root (this file lives in tests/support/). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The bundled CLI users get (`bin` in package.json); the e2e suite runs after `npm run build`. */
export const yokeBin = join(repoRoot, 'dist', 'bundle', 'yoke.js');

export interface YokeRunOptions {
  /** extra environment (on top of a cleaned copy of the test's environment) */
  env?: Record<string, string>;
  /** kill yoke (SIGKILL) after this long; default 25 s */
  timeoutMs?: number;
  /** yoke's stdin; by default empty (closed at once) */
  input?: string;
  /** start yoke as the leader of its own process group, so a test can kill -9 the whole group */
  detached?: boolean;
}

export interface YokeResult {
  /** undefined when yoke died from a signal */
  exitCode: number | undefined;
  signal: string | undefined;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  durationMs: number;
}

/** The test's environment without anything a surrounding yoke run or fake agent set. */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || key.startsWith('YOKE_') || key.startsWith('FAKE_AGENT_')) continue;
    env[key] = value;
  }
  return { ...env, NO_COLOR: '1', FORCE_COLOR: '0', ...extra };
}

function spawnYoke(cwd: string, args: string[], opts: YokeRunOptions) {
  return execa(process.execPath, [yokeBin, ...args], {
    cwd,
    env: cleanEnv(opts.env),
    extendEnv: false,
    reject: false,
    timeout: opts.timeoutMs ?? 25_000,
    killSignal: 'SIGKILL',
    forceKillAfterDelay: false,
    input: opts.input ?? '',
    detached: opts.detached ?? false,
  });
}

/** A running yoke; `await` it for the result (it never rejects). */
export type YokeSubprocess = ReturnType<typeof spawnYoke>;

/** Run `yoke <args>` in the workspace to completion. */
export async function runYoke(ws: { path: string }, args: string[], opts: YokeRunOptions = {}): Promise<YokeResult> {
  const started = Date.now();
  const result = await spawnYoke(ws.path, args, opts);
  return {
    exitCode: result.exitCode,
    signal: result.signal,
    stdout: result.stdout,
    stderr: result.stderr,
    timedOut: result.timedOut,
    durationMs: Date.now() - started,
  };
}

/** Start `yoke <args>` and return the running subprocess (for signal tests); await it for the result. */
export function startYoke(ws: { path: string }, args: string[], opts: YokeRunOptions = {}): YokeSubprocess {
  return spawnYoke(ws.path, args, opts);
}
