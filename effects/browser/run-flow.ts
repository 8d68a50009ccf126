// Running one journey: a fresh browser context, its page opened at base-url + path, the steps in
// order until the first failure, then the evidence (a screenshot always, a video on failure).
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Flow } from '../../config/flow/flow-schema.js';
import type { JourneyObservation } from '../../machines/acceptance/build-check-report.js';
import type { JourneyCategory, JourneyReport } from '../../machines/acceptance/check-report.js';
import { EffectAborted } from '../handler.js';
import { watchPage } from './page-watch.js';
import { resolveFlowUrl, runStep, StepFailure, type StepInputs } from './run-step.js';

/** Opening the flow's page may take at most this long (within the flow's budget). */
const NAVIGATION_MAX_MS = 30_000;
/** Each of screenshot, context close and video save gets this long after the steps. */
const EVIDENCE_MS = 5_000;
const VIEWPORT = { width: 1280, height: 720 };

/** One journey to run. */
export interface FlowRun {
  name: string;
  flow: Flow;
  inputs: StepInputs;
  /** where the screenshot and video go (the proof folder being written) */
  proofDir: string;
  /** where Playwright records videos, or null without video; cleared by the caller */
  videoDir: string | null;
  signal: AbortSignal;
  /** a driver message, for YOKE_DEBUG only (it may quote selectors or texts) */
  debug(line: string): void;
}

type StepReport = JourneyReport['steps'][number];

/** Run the flow. A failure of the flow is part of the observation; only an abort rejects. */
export async function runFlow(browser: Browser, run: FlowRun): Promise<JourneyObservation & { videoFailed: boolean }> {
  const started = Date.now();
  const deadline = started + run.flow.timeoutMs;
  const steps: StepReport[] = run.flow.steps.map((step, index) => ({ index: index + 1, action: step.action, status: 'skipped', category: null, durationMs: 0 }));
  const opened = await openPage(browser, run.videoDir);
  const observation = (failure: JourneyCategory | null, navigation: JourneyReport['navigation'], screenshot: string | null = null, video: string | null = null) => (
    { failure, durationMs: Date.now() - started, navigation, steps, screenshot, video, videoFailed: opened.videoFailed }
  );
  if (opened.page === null) return observation('browser-failed', { status: 'skipped', category: null, durationMs: 0 });
  const { context, page } = opened;
  const watch = watchPage(page);
  const fail = (error: unknown): JourneyCategory => {
    if (run.signal.aborted) throw new EffectAborted('check.run');
    run.debug(`journey ${run.name}: ${error instanceof Error ? error.message : String(error)}`);
    return error instanceof StepFailure ? error.category : 'step-failed';
  };
  try {
    let failure: JourneyCategory | null = null;
    const navStarted = Date.now();
    let navigation: JourneyReport['navigation'];
    try {
      const response = await abortable(page.goto(resolveFlowUrl(run.inputs.baseUrl, run.flow.path), {
        timeout: Math.max(1, Math.min(NAVIGATION_MAX_MS, deadline - Date.now())), waitUntil: 'load',
      }), run.signal, context);
      if (response !== null && !response.ok()) throw new StepFailure('navigation-failed', `the page answered ${response.status()}`);
      const seen = watch.failure();
      if (seen !== null) throw new StepFailure(seen, 'while the page opened');
      navigation = { status: 'passed', category: null, durationMs: Date.now() - navStarted };
    } catch (error) {
      const category = navigationCategory(fail(error));
      navigation = { status: 'failed', category, durationMs: Date.now() - navStarted };
      failure = category;
    }
    for (const [index, step] of run.flow.steps.entries()) {
      if (failure !== null) break;
      const report = steps[index] as StepReport;
      const stepStarted = Date.now();
      const left = deadline - Date.now();
      try {
        if (left <= 0) throw new StepFailure('timeout', 'the flow ran out of time');
        await abortable(runStep(page, step, Math.min(step.timeoutMs, left), run.inputs), run.signal, context);
        const seen = watch.failure();
        if (seen !== null) throw new StepFailure(seen, 'during the step');
        Object.assign(report, { status: 'passed', durationMs: Date.now() - stepStarted });
      } catch (error) {
        failure = fail(error);
        Object.assign(report, { status: 'failed', category: failure, durationMs: Date.now() - stepStarted });
      }
    }
    const screenshot = await takeScreenshot(page, run);
    // An error the page reported while the last step settled (seen by now) fails that step.
    const late = watch.failure();
    if (failure === null && late !== null) {
      failure = late;
      const last = steps.at(-1);
      if (last !== undefined) Object.assign(last, { status: 'failed', category: late });
    }
    watch.stop();
    const video = await finishVideo(page, context, failure !== null, run);
    return observation(failure, navigation, screenshot, video);
  } finally {
    await within(context.close(), EVIDENCE_MS).catch(() => undefined);
  }
}

/** A fresh context and page; with video when asked, falling back to none when recording cannot start. */
async function openPage(browser: Browser, videoDir: string | null): Promise<{ context: BrowserContext; page: Page; videoFailed: boolean } | { page: null; videoFailed: boolean }> {
  const attempt = async (video: boolean): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext({ viewport: VIEWPORT, ...(video && videoDir !== null ? { recordVideo: { dir: videoDir, size: VIEWPORT } } : {}) });
    try {
      return { context, page: await context.newPage() };
    } catch (error) {
      await context.close().catch(() => undefined);
      throw error;
    }
  };
  try {
    return { ...(await attempt(videoDir !== null)), videoFailed: false };
  } catch {
    if (videoDir === null) return { page: null, videoFailed: false };
    try {
      return { ...(await attempt(false)), videoFailed: true };
    } catch {
      return { page: null, videoFailed: true };
    }
  }
}

function navigationCategory(category: JourneyCategory): JourneyCategory {
  return category === 'step-failed' ? 'navigation-failed' : category;
}

/** `<name>.png` in the proof folder, or null when it could not be taken (or is empty). */
async function takeScreenshot(page: Page, run: FlowRun): Promise<string | null> {
  const file = `${run.name}.png`;
  try {
    await page.screenshot({ path: join(run.proofDir, file), timeout: EVIDENCE_MS });
    return (await stat(join(run.proofDir, file))).size > 0 ? file : null;
  } catch (error) {
    run.debug(`journey ${run.name}: no screenshot: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}

/** Close the context (which finishes the recording); keep the video as `<name>.webm` only when the flow failed. */
async function finishVideo(page: Page, context: BrowserContext, failed: boolean, run: FlowRun): Promise<string | null> {
  const video = page.video();
  await within(context.close(), EVIDENCE_MS).catch(() => undefined);
  if (video === null) return null;
  const file = `${run.name}.webm`;
  try {
    if (!failed) {
      await within(video.delete(), EVIDENCE_MS);
      return null;
    }
    await within(video.saveAs(join(run.proofDir, file)), EVIDENCE_MS);
    return file;
  } catch (error) {
    run.debug(`journey ${run.name}: no video: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}

/** `promise`, or a rejection after `ms`. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StepFailure('timeout', `no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** `promise`, unless the check is interrupted first: then the context is closed (ending the step) and it rejects. */
async function abortable<T>(promise: Promise<T>, signal: AbortSignal, context: BrowserContext): Promise<T> {
  // The call is already under way: once aborted, its own rejection (the closed browser) is nobody's.
  promise.catch(() => undefined);
  if (signal.aborted) throw new EffectAborted('check.run');
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      void context.close().catch(() => undefined);
      reject(new EffectAborted('check.run'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
}
