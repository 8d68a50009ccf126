// Watching a journey's page for what fails a flow besides its steps: error-level console
// messages, uncaught page errors, failed main-frame navigations and a crashed page.
import type { ConsoleMessage, Page, Request, Response } from 'playwright-core';
import type { JourneyCategory } from '../../machines/acceptance/check-report.js';

/** The first failure seen on a page, and a way to stop listening. */
export interface PageWatch {
  /** the category of the first failure since the watch started, or null */
  failure(): JourneyCategory | null;
  stop(): void;
}

/**
 * Start watching `page`. Two things are not failures: the browser's own `/favicon.ico` request
 * answered with an error (Chromium logs it as a console error for every site without an icon),
 * and a navigation aborted because another one replaced it (`net::ERR_ABORTED`).
 */
export function watchPage(page: Page): PageWatch {
  let first: JourneyCategory | null = null;
  const note = (category: JourneyCategory): void => {
    first ??= category;
  };
  const onConsole = (message: ConsoleMessage): void => {
    if (message.type() !== 'error') return;
    const source = message.location().url;
    if (source !== '' && URL.canParse(source) && new URL(source).pathname === '/favicon.ico') return;
    note('console-error');
  };
  const onPageError = (): void => note('page-error');
  const onCrash = (): void => note('browser-failed');
  const mainNavigation = (request: Request): boolean => request.isNavigationRequest() && request.frame() === page.mainFrame();
  const onResponse = (response: Response): void => {
    if (response.status() >= 400 && mainNavigation(response.request())) note('navigation-failed');
  };
  const onRequestFailed = (request: Request): void => {
    if (mainNavigation(request) && request.failure()?.errorText !== 'net::ERR_ABORTED') note('navigation-failed');
  };
  page.on('console', onConsole);
  page.on('pageerror', onPageError);
  page.on('crash', onCrash);
  page.on('response', onResponse);
  page.on('requestfailed', onRequestFailed);
  return {
    failure: () => first,
    stop: () => {
      page.off('console', onConsole);
      page.off('pageerror', onPageError);
      page.off('crash', onCrash);
      page.off('response', onResponse);
      page.off('requestfailed', onRequestFailed);
    },
  };
}
