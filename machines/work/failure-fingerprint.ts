// A failure's fingerprint: what failed and how, with volatile text normalized away (goal no-progress).
import type { AcceptanceCheckResult } from '../acceptance/acceptance-check.js';
import type { Violation } from '../boundary.js';
import { acceptanceFailureParts } from './goal-acceptance.js';
import { checkPassed, gatesDone, type CheckOutcome } from './guard-report.js';

/**
 * Replace text that differs between two runs of the same failure: durations, timestamps, temp
 * paths, hex ids, line:column positions and other numbers, and runs of whitespace.
 *
 * @example normalizeVolatile('failed after 1.24s in /tmp/abc123/x.ts') // 'failed after <n>s in <tmp>/x.ts'
 */
export function normalizeVolatile(text: string): string {
  return text
    .replace(/\d{4}-\d{2}-\d{2}[T ][\d:.]+Z?/g, '<time>')
    .replace(/(?:\/private)?\/(?:tmp|var\/folders)\/[^\s/'"]+/g, '<tmp>')
    .replace(/\b[0-9a-f]{7,64}\b/gi, '<hex>')
    .replace(/\d+(?:\.\d+)?/g, '<n>')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The fingerprint of an attempt that did not pass: boundary violations, the acceptance check's failures and failing checks, normalized. */
export function failureFingerprint(checks: readonly CheckOutcome[], violations: readonly Violation[], acceptance: AcceptanceCheckResult | null = null): string {
  const parts = violations.map((v) => `boundary ${v.path}`);
  if (acceptance !== null) parts.push(...acceptanceFailureParts(acceptance).map(normalizeVolatile));
  for (const check of checks) {
    if (!gatesDone(check) || checkPassed(check)) continue;
    parts.push(`${check.kind} ${check.name} ${check.result.outcome} ${normalizeVolatile(check.result.excerpt)}`);
  }
  return parts.join('\n');
}
