// From what a check observed to its report and verdict, purely: which criteria passed, whether
// each artifact binding holds, and the exit code (DESIGN §12).
import { journeyOf, type AcceptanceCheckParams, type AcceptanceCheckResult } from './acceptance-check.js';
import {
  CHECK_REPORT_VERSION, type ArtifactReport, type ArtifactSnapshot, type CheckReport, type CriterionReport,
  type JourneyCategory, type JourneyReport,
} from './check-report.js';

/** How one criterion command ended (its output tail already redacted). */
export interface CommandObservation {
  outcome: 'exited' | 'timed-out' | 'spawn-failed';
  exitCode: number | null;
  durationMs: number;
  outputTail: string;
}

/** What one journey did: the flow's own failure (null when every step passed) and its evidence. */
export type JourneyObservation = Pick<JourneyReport, 'durationMs' | 'navigation' | 'steps' | 'screenshot' | 'video'> & {
  failure: JourneyCategory | null;
};

/** Everything the executor measured: commands by criterion name, journeys by the journey they ran (`journeyOf`); artifacts in the order of the params. */
export interface CheckObservations {
  startedAt: string;
  durationMs: number;
  commands: Readonly<Record<string, CommandObservation>>;
  journeys: Readonly<Record<string, JourneyObservation>>;
  artifacts: { before: readonly ArtifactSnapshot[]; after: readonly ArtifactSnapshot[] };
  source: { before: string; after: string };
  config: CheckReport['config'];
  versions: CheckReport['versions'];
  /** DESIGN §16: the digest of the protected files once the criteria had run (params with `protection.patterns`) */
  protectionDigest?: string;
}

/** The report's protection: the digest measured (or given), the baseline's, and whether they are the same. */
function protectionOf(params: AcceptanceCheckParams, seen: CheckObservations): CheckReport['protection'] {
  const given = params.protection;
  if (given === undefined) return undefined;
  const digest = 'digest' in given ? given.digest : seen.protectionDigest;
  if (digest === undefined) throw new Error('a check with protected patterns finished without measuring them');
  return { digest, baseline: given.baseline, unchanged: given.baseline === null ? null : given.baseline === digest };
}

/**
 * The report. A journey passes only when its page opened, every step passed and its screenshot
 * exists; an artifact binding holds only when both snapshots found the same regular file and every
 * criterion it names passed; the check passes only when all of that holds and the source tree is
 * the same after the criteria as before, and the protected files (when any) match their baseline.
 */
export function buildCheckReport(params: AcceptanceCheckParams, seen: CheckObservations): CheckReport {
  const journeys: JourneyReport[] = [];
  const criteria = params.criteria.map((criterion): CriterionReport => {
    if (criterion.kind === 'command') {
      const run = seen.commands[criterion.name] ?? { outcome: 'spawn-failed', exitCode: null, durationMs: 0, outputTail: '' };
      const passed = run.outcome === 'exited' && run.exitCode === 0;
      return { name: criterion.name, kind: 'command', status: passed ? 'passed' : 'failed', exitCode: run.exitCode, outcome: run.outcome, durationMs: run.durationMs, outputTail: run.outputTail };
    }
    // a story's `journey:<name>` check shares the run of that journey (one flow run per journey and check)
    const journey = journeyReport(criterion.name, criterion.flow, seen.journeys[journeyOf(criterion)]);
    journeys.push(journey);
    return { name: criterion.name, kind: 'journey', status: journey.status, exitCode: null, outcome: null, durationMs: journey.durationMs, outputTail: null };
  });
  const passed = new Set(criteria.filter((criterion) => criterion.status === 'passed').map((criterion) => criterion.name));
  const artifacts = params.artifacts.map((artifact, index) =>
    artifactReport(artifact.path, artifact.criteria, seen.artifacts.before[index], seen.artifacts.after[index], passed));
  const matches = seen.source.before === seen.source.after;
  const protection = protectionOf(params, seen);
  const allPassed = passed.size === criteria.length && artifacts.every((artifact) => artifact.status === 'passed') && matches && protection?.unchanged !== false;
  return {
    version: CHECK_REPORT_VERSION,
    label: params.label,
    status: allPassed ? 'passed' : 'failed',
    startedAt: seen.startedAt,
    durationMs: seen.durationMs,
    criteria,
    artifacts,
    journeys,
    source: { ...seen.source, matches },
    config: seen.config,
    baseUrl: params.baseUrl,
    ...(protection === undefined ? {} : { protection }),
    versions: seen.versions,
  };
}

/** The effect's result for a written report. */
export function checkResultOf(report: CheckReport, path: string, sha256: string): AcceptanceCheckResult {
  return {
    outcome: 'completed',
    status: report.status,
    exitCode: report.status === 'passed' ? 0 : 1,
    report: { path, sha256 },
    criteria: report.criteria.map((criterion) => {
      const journey = criterion.kind === 'journey' ? report.journeys.find((candidate) => candidate.name === criterion.name) : undefined;
      const failedStep = journey?.steps.find((step) => step.status === 'failed');
      return {
        name: criterion.name,
        kind: criterion.kind,
        status: criterion.status,
        exitCode: criterion.exitCode,
        outcome: criterion.outcome,
        durationMs: criterion.durationMs,
        excerpt: criterion.outputTail ?? '',
        ...(journey === undefined ? {} : {
          category: journey.category,
          failedStep: failedStep === undefined ? null : { index: failedStep.index, action: failedStep.action },
        }),
      };
    }),
    failedArtifacts: report.artifacts.flatMap((artifact) => (artifact.status === 'failed' ? [{ path: artifact.path, reason: artifact.reason ?? 'failed' }] : [])),
    sourceMatches: report.source.matches,
    ...(report.protection?.unchanged === false ? { protectionChanged: true as const } : {}),
  };
}

const NOT_RUN: JourneyObservation = {
  failure: 'browser-failed', durationMs: 0, navigation: { status: 'skipped', category: null, durationMs: 0 }, steps: [], screenshot: null, video: null,
};

function journeyReport(name: string, flow: string, seen: JourneyObservation = NOT_RUN): JourneyReport {
  const { failure, ...evidence } = seen;
  const clean = failure === null && seen.navigation.status === 'passed' && seen.steps.every((step) => step.status === 'passed');
  // A screenshot is part of the proof: without one, a journey whose steps all passed still fails.
  const category = failure ?? (clean && seen.screenshot === null ? 'screenshot-failed' : null);
  const status = clean && seen.screenshot !== null ? 'passed' : 'failed';
  return { name, flow, status, category: status === 'passed' ? null : category ?? 'step-failed', ...evidence };
}

const ABSENT: ArtifactSnapshot = { state: 'missing', sha256: null, size: null };

function artifactReport(
  path: string, criteria: string[], before: ArtifactSnapshot = ABSENT, after: ArtifactSnapshot = ABSENT, passed: ReadonlySet<string>,
): ArtifactReport {
  const reason = before.state !== 'file' ? before.state
    : after.state !== 'file' ? after.state
      : before.sha256 !== after.sha256 || before.size !== after.size ? 'changed'
        : criteria.every((criterion) => passed.has(criterion)) ? null : 'criterion-failed';
  return { path, criteria, status: reason === null ? 'passed' : 'failed', reason, sha256: before.sha256, size: before.size, before, after };
}
