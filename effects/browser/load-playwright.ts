// Loading playwright-core, only when a check has a journey, with failure videos made possible by
// the system's ffmpeg when Playwright's own is not installed.
//
// Playwright records video with an ffmpeg it expects under its browser registry
// (`<registry>/ffmpeg-<revision>/ffmpeg-linux`) and never looks on PATH. When that file is
// absent and an ffmpeg is found (YOKE_FFMPEG, else PATH), yoke points the registry at a private
// folder holding a link to it, for the moment playwright-core is imported (the registry folder is
// read once, at import); the environment is put back right after, so no criterion command sees it.
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, platform, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import type { BrowserType } from 'playwright-core';

/** Environment variable naming the ffmpeg to record failure videos with. */
export const FFMPEG_ENV = 'YOKE_FFMPEG';

/** playwright-core, and whether failure videos can be recorded (if not: a sentence saying why). */
export interface LoadedPlaywright {
  chromium: BrowserType;
  video: { available: true } | { available: false; why: string };
}

let loaded: Promise<LoadedPlaywright> | null = null;

/**
 * Import playwright-core. Once per process: the registry folder is fixed by the first import, so
 * later calls get the same result (the private folder, if any, lives until the process exits).
 */
export function loadPlaywright(env: NodeJS.ProcessEnv): Promise<LoadedPlaywright> {
  loaded ??= importPlaywright(env);
  return loaded;
}

async function importPlaywright(env: NodeJS.ProcessEnv): Promise<LoadedPlaywright> {
  const require = createRequire(import.meta.url);
  const packageDir = dirname(require.resolve('playwright-core/package.json'));
  const revision = ffmpegRevision(packageDir);
  const registry = env.PLAYWRIGHT_BROWSERS_PATH ?? defaultRegistry();
  const own = revision !== null && existsSync(join(registry, `ffmpeg-${revision}`, 'ffmpeg-linux'));
  const found = own || revision === null || platform() !== 'linux' ? null : findFfmpeg(env);
  const system = found !== null && 'path' in found ? found.path : null;
  let shim: string | null = null;
  if (system !== null && revision !== null) {
    shim = mkdtempSync(join(tmpdir(), 'yoke-ffmpeg-'));
    mkdirSync(join(shim, `ffmpeg-${revision}`));
    symlinkSync(system, join(shim, `ffmpeg-${revision}`, 'ffmpeg-linux'));
    const folder = shim;
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  }
  const saved = process.env.PLAYWRIGHT_BROWSERS_PATH;
  if (shim !== null) process.env.PLAYWRIGHT_BROWSERS_PATH = shim;
  let chromium: BrowserType;
  try {
    ({ chromium } = await import('playwright-core'));
  } finally {
    if (saved === undefined) delete process.env.PLAYWRIGHT_BROWSERS_PATH;
    else process.env.PLAYWRIGHT_BROWSERS_PATH = saved;
  }
  const available = own || shim !== null;
  return {
    chromium,
    video: available ? { available: true } : { available: false, why: found !== null && 'why' in found ? found.why : 'this Playwright cannot record video here' },
  };
}

/** The ffmpeg revision this playwright-core expects (its browsers.json), or null if unreadable. */
function ffmpegRevision(packageDir: string): string | null {
  try {
    const manifest = JSON.parse(readFileSync(join(packageDir, 'browsers.json'), 'utf8')) as { browsers?: { name?: string; revision?: string }[] };
    return manifest.browsers?.find((browser) => browser.name === 'ffmpeg')?.revision ?? null;
  } catch {
    return null;
  }
}

/** Where Playwright keeps downloaded browsers on Linux by default. */
function defaultRegistry(): string {
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'ms-playwright');
}

/** The ffmpeg to record with (YOKE_FFMPEG, else the first on PATH), or why there is none. */
function findFfmpeg(env: NodeJS.ProcessEnv): { path: string } | { why: string } {
  const chosen = env[FFMPEG_ENV];
  if (chosen !== undefined && chosen !== '') return existsSync(chosen) ? { path: chosen } : { why: `${FFMPEG_ENV} names ${chosen}, which does not exist` };
  const path = (env.PATH ?? '').split(delimiter).filter((dir) => dir !== '').map((dir) => join(dir, 'ffmpeg')).find((candidate) => existsSync(candidate));
  return path !== undefined ? { path } : { why: `failure videos need ffmpeg: install it (Debian: apt-get install ffmpeg) or set ${FFMPEG_ENV}` };
}
