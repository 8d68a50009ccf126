// The acceptance check executor (DESIGN §12): the I/O half of `acceptance.check`, used by
// `yoke check` and, later, by goal acceptance through an effect handler.
//
// Order: prepare (refusals leave everything as it was) → source tree and artifacts, first
// snapshot → every criterion in order (commands, then journeys; a failure never stops the others)
// → artifacts and source tree, second snapshot, and the protected files' digest → report (pure)
// → the proof folder replaces the label's evidence. An interruption discards the new folder and keeps the old evidence.
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { journeyOf, type AcceptanceCheckParams, type AcceptanceCheckResult } from '../../machines/acceptance/acceptance-check.js';
import { buildCheckReport, checkResultOf, type CommandObservation, type JourneyObservation } from '../../machines/acceptance/build-check-report.js';
import { checkReportSchema } from '../../machines/acceptance/check-report.js';
import { runFlow } from '../browser/run-flow.js';
import { measureProtection } from '../protect/list-protected.js';
import { snapshotWorkTree } from '../git/git-tree.js';
import { snapshotArtifacts } from './artifact-snapshot.js';
import type { CheckContext } from './check-context.js';
import { checkConfigDigest } from './config-digest.js';
import { prepareCheck, type PreparedCheck } from './prepare-check.js';
import { runCriterionCommand } from './run-criterion-command.js';
import { createRedactor, type Redactor } from './secret-redactor.js';
import { combineSecrets, secretValues } from '../process/redact-secrets.js';

/** The file name of the report inside a proof folder. */
export const REPORT_FILE = 'report.json';

/**
 * Run the check described by `params` and write its evidence to `.loop/proof/<label>/`.
 * Resolves to the result (refused: exit 2, nothing replaced; completed: exit 0 or 1, with the
 * report's path and digest); rejects only on an interruption (EffectAborted) or a broken world
 * (git cannot snapshot the tree, the disk is full).
 * @example const result = await runAcceptanceCheck(planAcceptanceCheck(config, 'latest'), ctx);
 */
export async function runAcceptanceCheck(params: AcceptanceCheckParams, ctx: CheckContext): Promise<AcceptanceCheckResult> {
  const prepared = await prepareCheck(params, ctx);
  if ('outcome' in prepared) return prepared;
  const { proof, browser, flows } = prepared;
  // kept output (report, journal, guard-results.md) loses fill values and secret environment values alike
  const redactor = createRedactor(flows.secrets, combineSecrets(secretValues(ctx.env, params.redact), ctx.secrets ?? []));
  let committed = false;
  let videoDir: string | null = null;
  try {
    const startedAt = new Date();
    const clock = performance.now();
    const sourceBefore = await snapshotWorkTree(ctx.root);
    const artifactPaths = params.artifacts.map((artifact) => artifact.path);
    const before = await snapshotArtifacts(ctx.root, artifactPaths, ctx.signal);
    videoDir = browser?.video.available === true ? await mkdtemp(join(tmpdir(), 'yoke-check-video-')) : null;
    const { commands, journeys } = await runCriteria(params, ctx, prepared, redactor, videoDir);
    const after = await snapshotArtifacts(ctx.root, artifactPaths, ctx.signal);
    const sourceAfter = await snapshotWorkTree(ctx.root);
    // DESIGN §16: the protected files as the criteria left them, measured here, never taken on trust
    const protectionDigest = params.protection !== undefined && 'patterns' in params.protection ? await measureProtection(ctx.root, params.protection.patterns) : undefined;
    const flowDigests = flows.journeys.map((journey) => ({ journey: journey.name, sha256: journey.sha256 }));
    const report = checkReportSchema.parse(buildCheckReport(params, {
      startedAt: startedAt.toISOString(),
      durationMs: Math.round(performance.now() - clock),
      commands,
      journeys,
      artifacts: { before, after },
      source: { before: sourceBefore, after: sourceAfter },
      config: { digest: checkConfigDigest(params, flowDigests), effective: params.configDigest ?? null, flows: flowDigests },
      versions: { yoke: ctx.yokeVersion, node: process.version, platform: process.platform, arch: process.arch, browser: browser?.version ?? null },
      ...(protectionDigest === undefined ? {} : { protectionDigest }),
    }));
    if (browser !== null && !browser.video.available && report.journeys.some((journey) => journey.status === 'failed')) ctx.warn(`no failure video: ${browser.video.why}`);
    const bytes = `${JSON.stringify(report, null, 2)}\n`;
    await writeFile(join(proof.dir, REPORT_FILE), bytes);
    await proof.commit();
    committed = true;
    return checkResultOf(report, `${proof.relative}/${REPORT_FILE}`, createHash('sha256').update(bytes).digest('hex'));
  } finally {
    await browser?.browser.close().catch(() => undefined);
    if (!committed) await proof.discard();
    if (videoDir !== null) await rm(videoDir, { recursive: true, force: true });
  }
}

/** Every criterion in order; a failing one never stops the next. */
async function runCriteria(
  params: AcceptanceCheckParams, ctx: CheckContext, prepared: PreparedCheck, redactor: Redactor, videoDir: string | null,
): Promise<{ commands: Record<string, CommandObservation>; journeys: Record<string, JourneyObservation> }> {
  const commands: Record<string, CommandObservation> = {};
  const journeys: Record<string, JourneyObservation> = {};
  const debug = (line: string): void => {
    if (ctx.env.YOKE_DEBUG === '1') ctx.warn(redactor.redact(line));
  };
  let video = videoDir;
  for (const criterion of params.criteria) {
    if (criterion.kind === 'command') {
      ctx.progress(`criterion ${criterion.name}: ${criterion.command}`);
      commands[criterion.name] = await runCriterionCommand(criterion, params.label, ctx, redactor);
      continue;
    }
    // a journey that two criteria name (a story's `journey:<name>` check and `<name>` itself) runs once
    const name = journeyOf(criterion);
    const loaded = prepared.flows.journeys.find((journey) => journey.name === name);
    if (journeys[name] !== undefined || loaded === undefined || prepared.browser === null || params.baseUrl === null) continue;
    const count = loaded.flow.steps.length;
    ctx.progress(`journey ${name}: ${loaded.file} (${count} ${count === 1 ? 'step' : 'steps'})`);
    const { videoFailed, ...observation } = await runFlow(prepared.browser.browser, {
      name,
      flow: loaded.flow,
      inputs: { baseUrl: params.baseUrl, env: prepared.flows.env },
      proofDir: prepared.proof.dir,
      videoDir: video,
      signal: ctx.signal,
      debug,
    });
    if (videoFailed && video !== null) {
      ctx.warn('failure videos could not be recorded (ffmpeg did not start); screenshots are still taken');
      video = null;
    }
    journeys[name] = observation;
  }
  return { commands, journeys };
}
