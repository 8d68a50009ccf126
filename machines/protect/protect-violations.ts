// Protected-file changes as boundary violations: they skip the guards and fail the iteration (DESIGN §16).
import type { Violation } from '../boundary.js';
import { patternCovers } from './protect-pattern.js';
import type { Drift } from './protection-drift.js';

/** One violation per drifted path, naming the pattern that protects it and the blob keeping the agent's version. */
export function protectViolations(drift: readonly Drift[], patterns: readonly string[]): Violation[] {
  return drift.map((entry) => ({
    path: entry.path,
    rule: patterns.find((pattern) => patternCovers(pattern, entry.path)) ?? null,
    protect: { kind: entry.kind, kept: entry.after?.sha256 ?? null },
  }));
}
