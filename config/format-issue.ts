// Renders a config issue as one compiler-style line: `file:line:col: error: message (hint)`.
import type { ConfigIssue } from './types.js';

/**
 * One line for stderr, in the form editors and terminals link to.
 * @example formatIssue(issue) // ".loop/yoke.conf:3:16: error: `0` is not a whole number of 1 or more (use 1 or more, like 50)"
 */
export function formatIssue(issue: ConfigIssue): string {
  const hint = issue.hint === '' ? '' : ` (${issue.hint})`;
  return `${issue.file}:${issue.line}:${issue.column}: ${issue.severity}: ${issue.message}${hint}`;
}
