// Everything a check needs before it may replace its label's evidence: valid flow files, their
// environment values, a browser that starts, a base URL that answers, and a proof folder. Any of
// them missing refuses the check (exit 2) and leaves the earlier evidence as it was.
import { journeyOf, type AcceptanceCheckParams, type AcceptanceCheckResult, type CheckRefusal } from '../../machines/acceptance/acceptance-check.js';
import { findChromium } from '../browser/find-chromium.js';
import { launchChromium, type JourneyBrowser } from '../browser/launch-chromium.js';
import { probeBaseUrl } from '../browser/probe-base-url.js';
import type { CheckContext } from './check-context.js';
import { loadJourneyFlows, type LoadedFlows } from './load-journey-flows.js';
import { createProofFolder, type ProofFolder } from './proof-folder.js';

/** A check that may start: its flows, the browser (null without journeys), its proof folder. */
export interface PreparedCheck {
  flows: LoadedFlows;
  browser: JourneyBrowser | null;
  proof: ProofFolder;
}

type Refused = Extract<AcceptanceCheckResult, { outcome: 'refused' }>;

function refuse(reason: CheckRefusal, message: string, details: string[] = []): Refused {
  return { outcome: 'refused', exitCode: 2, reason, message, details };
}

/** The journeys a check runs, each once, under its own name (a story's `journey:<name>` check runs `<name>`). */
export function checkJourneys(params: AcceptanceCheckParams): Array<{ name: string; flow: string }> {
  const journeys = new Map<string, { name: string; flow: string }>();
  for (const criterion of params.criteria) {
    if (criterion.kind === 'journey' && !journeys.has(journeyOf(criterion))) journeys.set(journeyOf(criterion), { name: journeyOf(criterion), flow: criterion.flow });
  }
  return [...journeys.values()];
}

/** The prepared check, or why it cannot start (nothing was run, nothing was replaced). */
export async function prepareCheck(params: AcceptanceCheckParams, ctx: CheckContext): Promise<PreparedCheck | Refused> {
  const journeys = checkJourneys(params);
  const flows = await loadJourneyFlows(ctx.root, journeys, ctx.env);
  if ('reason' in flows) return refuse(flows.reason, flows.message, flows.details);
  let browser: JourneyBrowser | null = null;
  if (journeys.length > 0) {
    const chromium = findChromium(ctx.env);
    if ('missing' in chromium) return refuse('browser-missing', chromium.missing);
    if (params.baseUrl === null) return refuse('base-url-unreachable', 'journeys need a `base-url` in .loop/yoke.conf.');
    const unreachable = await probeBaseUrl(params.baseUrl);
    if (unreachable !== null) {
      return refuse('base-url-unreachable', `base-url ${params.baseUrl} does not answer (${unreachable}); start the application under test first, then run the check again.`);
    }
    try {
      browser = await launchChromium(chromium.path, ctx.env);
    } catch (error) {
      const detail = error instanceof Error ? error.message.split('\n')[0] ?? error.message : String(error);
      return refuse('browser-failed', `Chromium at ${chromium.path} did not start: ${detail.replace(/\.$/, '')}.`);
    }
  }
  try {
    return { flows, browser, proof: await createProofFolder(ctx.loopDir, params.label) };
  } catch (error) {
    await browser?.browser.close().catch(() => undefined);
    return refuse('proof-unwritable', `the proof folder in ${ctx.loopDir} cannot be written: ${error instanceof Error ? error.message : String(error)}.`);
  }
}
