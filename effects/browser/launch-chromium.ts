// Starting the system's Chromium for a check's journeys, with the flags this kind of machine needs.
import type { Browser } from 'playwright-core';
import { loadPlaywright, type LoadedPlaywright } from './load-playwright.js';

/** How long the browser may take to start. */
const LAUNCH_TIMEOUT_MS = 30_000;

/**
 * Headless, no GPU, no QUIC, nothing fetched in the background (first-run, component updates,
 * sync); `--no-sandbox` only when running as root, where Chromium refuses its sandbox. Playwright
 * gives every launch a fresh temporary profile (`--user-data-dir`) and removes it on close; each
 * flow then gets a fresh context of its own.
 */
export function chromiumFlags(isRoot: boolean): string[] {
  return [
    ...(isRoot ? ['--no-sandbox'] : []),
    '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
  ];
}

/** A running browser for a check, its version, and whether failure videos can be recorded. */
export interface JourneyBrowser {
  browser: Browser;
  version: string;
  video: LoadedPlaywright['video'];
}

/** Launch `executablePath`; rejects with playwright's error when the browser does not start. */
export async function launchChromium(executablePath: string, env: NodeJS.ProcessEnv): Promise<JourneyBrowser> {
  const playwright = await loadPlaywright(env);
  const browser = await playwright.chromium.launch({
    executablePath,
    headless: true,
    args: chromiumFlags(process.getuid?.() === 0),
    timeout: LAUNCH_TIMEOUT_MS,
    // Playwright's own handlers would close the browser on SIGINT before yoke's do
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  return { browser, version: browser.version(), video: playwright.video };
}
