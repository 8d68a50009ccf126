// Goal acceptance through the check engine (DESIGN §12): the `acceptance.check` request an attempt
// makes, and how its result reads as feedback, as a verdict and as a failure fingerprint.
//
// Runs record which engine they use in their journaled input (`acceptanceEngine: 'check'`); a run
// recorded without it (every goal run before the engine existed) runs its `accept` commands as
// `check.run` requests, so its journal replays and verifies exactly as it was written.
import { DEFAULT_CHECK_LABEL, type AcceptanceCheckParams, type AcceptanceCheckResult } from '../acceptance/acceptance-check.js';
import { planAcceptanceCheck } from '../acceptance/plan-acceptance-check.js';
import type { Config } from '../../config/types.js';
import type { Protection } from '../protect/protection.js';

/** The last report a run's acceptance wrote: where (relative to `.loop/`), its digest, its verdict, and the attempt. */
export interface ProofRecord {
  path: string;
  sha256: string;
  status: 'passed' | 'failed';
  iteration: number;
}

/** Does this run check its acceptance with the engine (a journaled choice, never today's default)? */
export function usesCheckEngine(context: { acceptanceEngine?: 'check' }): boolean {
  return context.acceptanceEngine === 'check';
}

/**
 * The check an attempt requests: every criterion, binding and journey, under the run id's label.
 * With protection (DESIGN §16) the executor hashes the protected files once the criteria have run
 * and the report compares that digest with the baseline's (a criterion that changed one fails the
 * check). Runs journaled before (without `protectAll`) copied the baseline's digest, and replay so.
 */
export function goalAcceptanceParams(context: RunCheckContext): AcceptanceCheckParams | null {
  const params = planAcceptanceCheck(context.config, context.run ?? DEFAULT_CHECK_LABEL);
  return params === null ? null : inRun(params, context);
}

/** What a run's acceptance check takes from its context besides the config. */
export type RunCheckContext = { config: Config; run?: string; configDigest?: string; protection?: Protection; protectAll?: true };

/**
 * A check as a run requests it: with the digest of the config the run started with (runs recorded
 * before it have none), and the protection described above.
 */
export function inRun(params: AcceptanceCheckParams, context: RunCheckContext): AcceptanceCheckParams {
  const planned = context.configDigest === undefined ? params : { ...params, configDigest: context.configDigest };
  if (context.protection === undefined) return planned;
  if (context.protectAll === true) return { ...planned, protection: { patterns: context.protection.patterns, baseline: context.protection.digest } };
  return { ...planned, protection: { digest: context.protection.digest, baseline: context.protection.digest } };
}

/** Did the check run and everything in it pass with evidence? */
export function acceptancePassed(result: AcceptanceCheckResult | null): boolean {
  return result !== null && result.outcome === 'completed' && result.status === 'passed';
}

/** The report to remember from a result (null when the check was refused and wrote none). */
export function proofOf(result: AcceptanceCheckResult, iteration: number): ProofRecord | null {
  return result.outcome === 'completed' ? { ...result.report, status: result.status, iteration } : null;
}

/** Where a journey stopped, in words that hold no selector or text: `step 3 (expect-text): step-failed`. */
function journeyWhere(criterion: Extract<AcceptanceCheckResult, { outcome: 'completed' }>['criteria'][number]): string {
  const step = criterion.failedStep;
  const category = criterion.category ?? 'failed';
  return step ? `step ${step.index} (${step.action}): ${category}` : `before the first step: ${category}`;
}

/** guard-results.md's acceptance section: the verdict, the report, then each criterion with its output. */
export function renderAcceptance(result: AcceptanceCheckResult): string[] {
  if (result.outcome === 'refused') {
    return ['## Acceptance: could not run', '', `${result.message}`, ...result.details.map((detail) => `- ${detail}`), '', 'Nothing was checked, so this attempt did not pass.', ''];
  }
  const failed = result.criteria.filter((criterion) => criterion.status === 'failed');
  const lines = [`## Acceptance: ${result.status === 'passed' ? 'PASSED' : 'FAILED'} (evidence: .loop/${result.report.path})`, ''];
  if (failed.length > 0) lines.push(`${failed.length} of ${result.criteria.length} criteria FAILED: ${failed.map((criterion) => criterion.name).join(', ')}.`, '');
  for (const criterion of result.criteria) {
    const verdict = criterion.status === 'passed' ? 'PASS' : 'FAIL';
    const seconds = `${((criterion.durationMs ?? 0) / 1000).toFixed(1)}s`;
    if (criterion.kind === 'journey') {
      lines.push(`### journey \`${criterion.name}\` — ${verdict} (${criterion.status === 'passed' ? 'every step passed' : journeyWhere(criterion)}, ${seconds})`, '');
      continue;
    }
    const how = criterion.outcome === 'timed-out' ? 'killed: guard-timeout reached' : criterion.outcome === 'spawn-failed' ? 'could not start' : `exit ${criterion.exitCode ?? '?'}`;
    lines.push(`### accept \`${criterion.name}\` — ${verdict} (${how}, ${seconds})`, '');
    const excerpt = criterion.excerpt.trimEnd();
    lines.push(...(excerpt.length > 0 ? ['```text', excerpt.replace(/```/g, "'''"), '```', ''] : ['(no output)', '']));
  }
  for (const artifact of result.failedArtifacts ?? []) lines.push(`- artifact \`${artifact.path}\`: binding FAILED (${artifact.reason})`);
  if (!result.sourceMatches) lines.push('- the source tree changed while the criteria ran: a criterion must not modify the project');
  if (result.protectionChanged === true) lines.push('- the protected files (acceptance infrastructure) differ from their baseline after the criteria ran: a criterion must not change them (`yoke protect status` lists them)');
  if ((result.failedArtifacts ?? []).length > 0 || !result.sourceMatches || result.protectionChanged === true) lines.push('');
  return lines;
}

/** The fingerprint lines of a failed check (volatile text is normalized by the caller). */
export function acceptanceFailureParts(result: AcceptanceCheckResult): string[] {
  if (result.outcome === 'refused') return [`acceptance refused ${result.reason} ${result.message}`];
  const parts = result.criteria.filter((criterion) => criterion.status === 'failed').map((criterion) =>
    criterion.kind === 'journey' ? `journey ${criterion.name} ${journeyWhere(criterion)}` : `accept ${criterion.name} ${criterion.outcome ?? ''} ${criterion.excerpt}`);
  for (const artifact of result.failedArtifacts ?? []) parts.push(`artifact ${artifact.path} ${artifact.reason}`);
  if (!result.sourceMatches) parts.push('acceptance source changed');
  if (result.protectionChanged === true) parts.push('acceptance protection changed');
  return parts;
}
