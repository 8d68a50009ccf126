// Renders `.loop/guard-results.md`: what the boundary check and every check said this iteration.
import type { AcceptanceCheckResult } from '../acceptance/acceptance-check.js';
import type { HeadMove, Violation } from '../boundary.js';
import { renderAcceptance } from './goal-acceptance.js';
import type { EffectResult } from '../effects.js';

/** A check planned for this iteration (guards first, then each due periodic followed by its guard-afters). */
export interface PlannedCheck {
  kind: 'guard' | 'periodic' | 'guard-after' | 'accept';
  name: string;
  command: string;
}

/** A planned check with what it did. */
export interface CheckOutcome extends PlannedCheck {
  result: EffectResult<'check.run'>;
}

/** Did this check pass? (exit 0 within its time limit) */
export function checkPassed(outcome: CheckOutcome): boolean {
  return outcome.result.outcome === 'exited' && outcome.result.exitCode === 0;
}

/** Periodics are informational; guards and guard-afters gate DONE. */
export function gatesDone(check: PlannedCheck): boolean {
  return check.kind !== 'periodic';
}

/** Everything the report needs, all of it already journaled. */
export interface GuardReportInput {
  iteration: number;
  maxIterations: number;
  notesFirstLine: string | null;
  changed: readonly string[];
  violations: readonly Violation[];
  checks: readonly CheckOutcome[];
  /** goal (check engine): this attempt's acceptance check; absent otherwise */
  acceptance?: AcceptanceCheckResult;
}

/** The markdown the worker reads on its next turn (spec 1.3: nothing is swallowed). */
export function renderGuardReport(input: GuardReportInput): string {
  const lines = [`# Guard results — iteration ${input.iteration} of ${input.maxIterations}`, ''];
  lines.push(`Notes status: ${input.notesFirstLine ?? '(notes.md missing or empty)'}`, '');
  if (input.violations.length > 0) {
    lines.push('## Boundary check: FAILED', '');
    const paths = input.violations.filter((violation) => violation.head === undefined && violation.protect === undefined);
    for (const violation of input.violations) if (violation.head !== undefined) lines.push(...renderHeadMove(violation.head));
    lines.push(...renderProtected(input.violations.filter((violation) => violation.protect !== undefined)));
    if (paths.length > 0) {
      lines.push('These changes are outside the allowed boundary (see `allow` / `no-modify` in yoke.conf). Revert them:', '');
      for (const violation of paths) {
        const why = violation.rule === null ? 'not covered by any `allow` rule' : `protected by \`no-modify ${violation.rule}\``;
        lines.push(`- \`${violation.path}\` — ${why}`);
      }
      lines.push('');
    }
    lines.push('All guards were skipped: guards never run on a state that breaks the boundary.', '');
    return lines.join('\n');
  }
  lines.push(`## Boundary check: passed (${input.changed.length} changed path${input.changed.length === 1 ? '' : 's'} since the run started)`, '');
  if (input.acceptance !== undefined) lines.push(...renderAcceptance(input.acceptance));
  if (input.checks.length === 0) {
    lines.push('No guards are configured.', '');
    return lines.join('\n');
  }
  const gating = input.checks.filter(gatesDone);
  const failed = gating.filter((check) => !checkPassed(check));
  if (gating.length === 0) lines.push('No guards ran this iteration (periodic results below are informational).', '');
  else lines.push(failed.length === 0 ? `All ${gating.length} guard(s) passed.` : `${failed.length} of ${gating.length} guard(s) FAILED: ${failed.map((c) => c.name).join(', ')}.`, '');
  for (const check of input.checks) lines.push(...renderCheck(check));
  return lines.join('\n');
}

/** Changes to protected files: what changed, that yoke put the baseline back, and where the agent's version is. */
function renderProtected(violations: readonly Violation[]): string[] {
  if (violations.length === 0) return [];
  const lines = [
    'These files are acceptance infrastructure (the tests and checks that decide "done", protected by `protect` in yoke.conf).',
    'yoke restored them from the protection baseline; change the code so the checks pass, never the checks themselves:',
    '',
  ];
  for (const violation of violations) {
    const change = violation.protect;
    if (change === undefined) continue;
    const kept = change.kept === null ? '' : ` (your version is kept as blob ${change.kept.slice(0, 12)})`;
    const what = change.kind === 'mode' ? 'its mode was changed' : change.kind === 'added' ? 'a new file under a protected pattern' : change.kind;
    lines.push(`- \`${violation.path}\` — ${what}, protected by \`protect ${violation.rule ?? '?'}\`${kept}; restored`);
  }
  lines.push('');
  return lines;
}

function branchName(branch: string | null): string {
  return branch === null ? 'a detached HEAD' : `branch \`${branch}\``;
}

/** What moved HEAD did, and how to put it back (yoke commits only onto the run's branch, on top of its commits). */
function renderHeadMove(move: HeadMove): string[] {
  const lines = [`HEAD moved: yoke commits only onto ${branchName(move.expected.branch)}${move.expected.sha === null ? '' : `, on top of commit ${move.expected.sha}`}. Do not reset, rebase, amend or switch branches.`, ''];
  if (move.now.branch !== move.expected.branch) {
    const back = move.expected.branch === null ? `git checkout --detach ${move.expected.sha ?? 'HEAD'}` : `git checkout ${move.expected.branch}`;
    lines.push(`- HEAD switched from ${branchName(move.expected.branch)} to ${branchName(move.now.branch)}: switch back with \`${back}\``);
  }
  if (move.lost !== null) {
    lines.push(`- commit ${move.lost} is no longer on HEAD (HEAD is ${move.now.sha ?? 'an unborn branch'}): it was reset, rebased or amended away; bring it back with \`git reset --keep ${move.lost}\``);
  }
  lines.push('');
  return lines;
}

function renderCheck(check: CheckOutcome): string[] {
  const { result } = check;
  const verdict = check.kind === 'periodic' ? 'ran (informational)' : checkPassed(check) ? 'PASS' : 'FAIL';
  const how =
    result.outcome === 'exited' ? (result.exitCode !== null ? `exit ${result.exitCode}` : `killed by ${result.signal ?? 'a signal'}`)
    : result.outcome === 'timed-out' ? 'killed: guard-timeout reached'
    : result.outcome === 'idle-timeout' ? 'killed: no output'
    : 'could not start';
  const seconds = (result.durationMs / 1000).toFixed(1);
  const lines = [`### ${check.kind} \`${check.name}\` — ${verdict} (${how}, ${seconds}s)`, '', `Command: \`${check.command}\``, ''];
  const excerpt = result.excerpt.trimEnd();
  if (excerpt.length > 0) lines.push('```text', excerpt.replace(/```/g, "'''"), '```', '');
  else lines.push('(no output)', '');
  return lines;
}
