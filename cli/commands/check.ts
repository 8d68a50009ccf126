// `yoke check [--label L] [--json]`: run the acceptance criteria with no agent and write the
// evidence to .loop/proof/<label>/ (DESIGN §12). Outside a run it writes nothing else.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { EffectAborted } from '../../effects/handler.js';
import { CHECK_ENV } from '../../effects/acceptance/run-criterion-command.js';
import { runAcceptanceCheck } from '../../effects/acceptance/run-acceptance-check.js';
import { effectiveConfigDigest } from '../../effects/acceptance/config-digest.js';
import { childEnvironment } from '../../effects/process/child-environment.js';
import { storeSecrets } from '../../store/session/store-secrets.js';
import { gitExitCode } from '../../effects/git/run-git.js';
import { CHECK_LABEL, DEFAULT_CHECK_LABEL, type AcceptanceCheckParams } from '../../machines/acceptance/acceptance-check.js';
import type { Config } from '../../config/types.js';
import { inspectProtection } from '../../store/session/inspect-protection.js';
import { readWorkspace } from '../../store/session/read-workspace.js';
import type { WorkspacePaths } from '../../store/session/workspace-paths.js';
import { checkReportSchema } from '../../machines/acceptance/check-report.js';
import { planAcceptanceCheck } from '../../machines/acceptance/plan-acceptance-check.js';
import { storyCriteria } from '../../machines/acceptance/story-criteria.js';
import { lifecycleNamed } from '../../machines/lifecycles/registry.js';
import { formatIssue } from '../../config/format-issue.js';
import { YokeError } from '../../errors/yoke-error.js';
import { checkSummary } from '../check-summary.js';
import { exitCodeForSignal } from '../exit-codes.js';
import { listenForStopSignals } from '../stop-signals.js';
import { findProject } from '../find-project.js';
import { loadConfig } from '../load-config.js';
import { readPrdStories } from '../prd-stories.js';
import { processOutput, warn } from '../terminal.js';
import { yokeVersion } from '../version.js';

/** Flags of `yoke check`. */
export interface CheckFlags {
  label?: string;
  json: boolean;
}

/** Exit 0 all passed with evidence, 1 something failed or the source changed, 2 a prerequisite is missing. */
export async function checkCommand(flags: CheckFlags): Promise<number> {
  if (process.env[CHECK_ENV] !== undefined) {
    throw new YokeError('usage', `a criterion of the check \`${process.env[CHECK_ENV]}\` runs \`yoke check\` itself, which would never end; remove it from the criteria.`);
  }
  const label = flags.label ?? DEFAULT_CHECK_LABEL;
  if (!CHECK_LABEL.test(label)) {
    throw new YokeError('usage', `--label \`${label}\` is not a label; use letters, digits, \`.\`, \`_\` and \`-\` (up to 64, starting with a letter or digit), like release-1.2.`);
  }
  const paths = findProject(process.cwd());
  const config = loadConfig(paths, (line) => process.stderr.write(`${line}\n`));
  // Stories mode: each story's `check` is a criterion too (DESIGN §8), prd.yaml validated first.
  const stories = lifecycleNamed(config.mode)?.features.includes('stories') === true ? storyCriteria(config, readPrdStories(paths)) : null;
  const [unknownJourney, ...moreUnknown] = stories?.issues ?? [];
  if (unknownJourney) throw new YokeError('usage', formatIssue(unknownJourney), moreUnknown.map(formatIssue));
  const planned = planAcceptanceCheck(config, label, stories?.criteria ?? []);
  if (planned === null) {
    const conf = relative(process.cwd(), paths.conf) || paths.conf;
    throw new YokeError('usage', stories === null
      ? `${conf} declares no acceptance criterion; add a line like \`accept tests npm test\` or \`journey smoke journeys/smoke.yaml\`.`
      : `no story in .loop/prd.yaml has a \`check\` and ${conf} declares no acceptance criterion; give a criterion a command, like \`- text: the greeting is tested\` with \`check: npm test\` below it.`);
  }
  const params = { ...planned, ...(await protectionParam(paths, config)), configDigest: effectiveConfigDigest(config) };
  if (await proofIsCommittable(paths.root)) {
    warn('.loop/proof/ is not ignored by git, so a commit would include the evidence; add `proof/` to .loop/.gitignore (`yoke init --force <mode>` writes it)');
  }
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => {
    if (controller.signal.aborted) process.exit(exitCodeForSignal(signal));
    controller.abort(signal);
  };
  const stopListening = listenForStopSignals(onSignal);
  try {
    const result = await runAcceptanceCheck(params, {
      root: paths.root,
      loopDir: paths.loopDir,
      // a copy: nothing yoke sets for itself reaches the criteria, nor the store's credentials
      env: childEnvironment(),
      secrets: storeSecrets(paths),
      output: processOutput({ quiet: false, json: flags.json }),
      signal: controller.signal,
      warn,
      progress: (line) => process.stderr.write(`yoke: check ${label}: ${line}\n`),
      yokeVersion: yokeVersion(),
    });
    if (result.outcome === 'refused') throw new YokeError('usage', result.message, result.details);
    const reportPath = join(paths.loopDir, result.report.path);
    const report = checkReportSchema.parse(JSON.parse(readFileSync(reportPath, 'utf8')));
    if (flags.json) {
      process.stdout.write(`${JSON.stringify({ path: relative(paths.root, reportPath), sha256: result.report.sha256, exitCode: result.exitCode, report })}\n`);
    } else {
      const shown = relative(process.cwd(), join(paths.loopDir, 'proof', label)) || '.';
      for (const line of checkSummary(report, shown)) process.stdout.write(`${line}\n`);
    }
    return result.exitCode;
  } catch (error) {
    if (error instanceof EffectAborted) return exitCodeForSignal(String(controller.signal.reason ?? 'SIGINT'));
    throw error;
  } finally {
    stopListening();
  }
}

/**
 * DESIGN §16: the protected patterns, whose files the check hashes once its criteria have run, and
 * the baseline's digest, for the report (absent when nothing is protected and no baseline was ever
 * taken). Read-only: a check never takes a baseline. A covered link leading out refuses here.
 */
async function protectionParam(paths: WorkspacePaths, config: Config): Promise<Pick<AcceptanceCheckParams, 'protection'>> {
  const inspection = await inspectProtection(paths, config, (await readWorkspace(paths)).records);
  const baseline = inspection.history.baseline;
  if (baseline === null && inspection.patterns.length === 0) return {};
  return { protection: { patterns: inspection.patterns, baseline: baseline?.digest ?? null } };
}

/** Would `git add -A` pick up the proof folder? (`git check-ignore` exits 1 for a path it does not ignore.) */
async function proofIsCommittable(root: string): Promise<boolean> {
  return (await gitExitCode(root, ['check-ignore', '-q', '.loop/proof/latest/report.json']).catch(() => 0)) === 1;
}
