// Performing one flow step on a page within its time allowance.
import type { Locator, Page } from 'playwright-core';
import type { FlowStep } from '../../config/flow/flow-schema.js';
import type { JourneyCategory } from '../../machines/acceptance/check-report.js';

/** A step that did not do what it says; `category` is all the report keeps of it. */
export class StepFailure extends Error {
  constructor(readonly category: JourneyCategory, detail: string) {
    super(detail);
    this.name = 'StepFailure';
  }
}

/** Polling interval and attempt limit of `expect-text` (on top of its deadline). */
const TEXT_POLL_MS = 100;
const TEXT_ATTEMPTS = 400;

/** What a step needs besides the page: the base URL and the fill values read at the start of the check. */
export interface StepInputs {
  baseUrl: string;
  /** `value-env` name → value, captured once when the check began */
  env: ReadonlyMap<string, string>;
}

/** Where a flow path or a relative `expect-url` leads: appended to base-url. */
export function resolveFlowUrl(baseUrl: string, target: string): string {
  return new URL(target.startsWith('/') ? `${baseUrl}${target}` : target).href;
}

/** Run `step` with at most `timeoutMs`; throws StepFailure (a Playwright timeout becomes `timeout`). */
export async function runStep(page: Page, step: FlowStep, timeoutMs: number, inputs: StepInputs): Promise<void> {
  try {
    await perform(page, step, timeoutMs, inputs);
  } catch (error) {
    if (error instanceof StepFailure) throw error;
    const name = error instanceof Error ? error.name : '';
    throw new StepFailure(name === 'TimeoutError' ? 'timeout' : 'step-failed', error instanceof Error ? error.message : String(error));
  }
}

async function perform(page: Page, step: FlowStep, timeout: number, inputs: StepInputs): Promise<void> {
  switch (step.action) {
    case 'click':
      return page.locator(step.selector).click({ timeout });
    case 'fill': {
      const value = 'literal' in step.value ? step.value.literal : inputs.env.get(step.value.env);
      if (value === undefined) throw new StepFailure('step-failed', 'the environment value was not captured');
      return page.locator(step.selector).fill(value, { timeout });
    }
    case 'press':
      return page.locator(step.selector).press(step.key, { timeout });
    case 'expect-visible':
      return page.locator(step.selector).waitFor({ state: 'visible', timeout });
    case 'expect-text':
      return expectText(page, page.locator(step.selector), step.text, step.exact, timeout);
    case 'expect-url': {
      const expected = resolveFlowUrl(inputs.baseUrl, step.url);
      // A predicate, not a string: Playwright reads a string as a glob pattern.
      await page.waitForURL((url) => url.href === expected, { timeout, waitUntil: 'commit' });
      return;
    }
    case 'reload': {
      const response = await page.reload({ timeout, waitUntil: 'load' });
      if (response !== null && !response.ok()) throw new StepFailure('navigation-failed', `reload answered ${response.status()}`);
      return;
    }
  }
}

function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Wait until the element is visible and its text (whitespace collapsed) contains `expected`, or
 * equals it with `exact`. Case-sensitive, literal. Never visible in time → `timeout`; visible
 * but with other text until the deadline → `step-failed`.
 */
async function expectText(page: Page, locator: Locator, expected: string, exact: boolean, timeout: number): Promise<void> {
  const deadline = Date.now() + timeout;
  const want = normalize(expected);
  await locator.waitFor({ state: 'visible', timeout });
  for (let attempt = 0; attempt < TEXT_ATTEMPTS; attempt += 1) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    // Visible already: running out of time while reading its text is still "other text until the deadline".
    const text = await locator.innerText({ timeout: left }).then((value) => normalize(value), (error: unknown) => {
      if (error instanceof Error && error.name === 'TimeoutError') return null;
      throw error;
    });
    if (text === null) break;
    if (exact ? text === want : text.includes(want)) return;
    await page.waitForTimeout(Math.min(TEXT_POLL_MS, Math.max(0, deadline - Date.now())));
  }
  throw new StepFailure('step-failed', 'the text did not match');
}
