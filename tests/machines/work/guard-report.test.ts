import { describe, expect, it } from 'vitest';
import type { EffectResult } from '../../../machines/effects.js';
import { checkPassed, gatesDone, renderGuardReport, type CheckOutcome, type GuardReportInput } from '../../../machines/work/guard-report.js';

function makeCheck(kind: CheckOutcome['kind'], name: string, result: Partial<EffectResult<'check.run'>> = {}): CheckOutcome {
  return {
    kind,
    name,
    command: `./${name}.sh`,
    result: { outcome: 'exited', exitCode: 0, signal: null, durationMs: 1_500, excerpt: `${name} output`, ...result },
  };
}

function makeReport(overrides: Partial<GuardReportInput> = {}): GuardReportInput {
  return { iteration: 2, maxIterations: 5, notesFirstLine: 'STATUS: DONE', changed: ['src/a.ts'], violations: [], checks: [], ...overrides };
}

describe('checkPassed', () => {
  it('passes only a check that exited with code 0', () => {
    expect(checkPassed(makeCheck('guard', 'ok'))).toBe(true);
    expect(checkPassed(makeCheck('guard', 'red', { exitCode: 1 }))).toBe(false);
    expect(checkPassed(makeCheck('guard', 'signalled', { exitCode: null, signal: 'SIGSEGV' }))).toBe(false);
    expect(checkPassed(makeCheck('guard', 'slow', { outcome: 'timed-out', exitCode: 0 }))).toBe(false);
    expect(checkPassed(makeCheck('guard', 'quiet', { outcome: 'idle-timeout', exitCode: 0 }))).toBe(false);
    expect(checkPassed(makeCheck('guard', 'missing', { outcome: 'spawn-failed', exitCode: null }))).toBe(false);
  });
});

describe('gatesDone', () => {
  it('guards and guard-afters gate DONE; periodics are informational', () => {
    expect(gatesDone(makeCheck('guard', 'g'))).toBe(true);
    expect(gatesDone(makeCheck('guard-after', 'ga'))).toBe(true);
    expect(gatesDone(makeCheck('periodic', 'p'))).toBe(false);
  });
});

describe('renderGuardReport', () => {
  it('1.3 a whole report: summary, then every check with its verdict, how it ended, command and excerpt', () => {
    const report = renderGuardReport(makeReport({
      changed: ['src/a.ts', 'src/b.ts'],
      checks: [
        makeCheck('guard', 'lint'),
        makeCheck('guard', 'tests', { exitCode: 1, durationMs: 12_340, excerpt: 'FAIL src/a.test.ts\n  expected 1, got 2\n\n' }),
        makeCheck('periodic', 'audit', { exitCode: 3, excerpt: '' }),
        makeCheck('guard-after', 'audit-clean'),
      ],
    }));
    expect(report).toBe([
      '# Guard results — iteration 2 of 5',
      '',
      'Notes status: STATUS: DONE',
      '',
      '## Boundary check: passed (2 changed paths since the run started)',
      '',
      '1 of 3 guard(s) FAILED: tests.',
      '',
      '### guard `lint` — PASS (exit 0, 1.5s)',
      '',
      'Command: `./lint.sh`',
      '',
      '```text',
      'lint output',
      '```',
      '',
      '### guard `tests` — FAIL (exit 1, 12.3s)',
      '',
      'Command: `./tests.sh`',
      '',
      '```text',
      'FAIL src/a.test.ts',
      '  expected 1, got 2',
      '```',
      '',
      '### periodic `audit` — ran (informational) (exit 3, 1.5s)',
      '',
      'Command: `./audit.sh`',
      '',
      '(no output)',
      '',
      '### guard-after `audit-clean` — PASS (exit 0, 1.5s)',
      '',
      'Command: `./audit-clean.sh`',
      '',
      '```text',
      'audit-clean output',
      '```',
      '',
    ].join('\n'));
  });

  it('1.4 a boundary violation: only boundary feedback, naming each path and why, guards said to be skipped', () => {
    const report = renderGuardReport(makeReport({
      changed: ['src/a.ts', 'vendor/x.js', 'README.md'],
      violations: [{ path: 'vendor/x.js', rule: 'vendor/' }, { path: 'README.md', rule: null }],
      checks: [makeCheck('guard', 'lint')],
    }));
    expect(report).toContain('## Boundary check: FAILED');
    expect(report).toContain('- `vendor/x.js` — protected by `no-modify vendor/`');
    expect(report).toContain('- `README.md` — not covered by any `allow` rule');
    expect(report).toContain('All guards were skipped');
    expect(report).not.toContain('src/a.ts');
    expect(report).not.toContain('lint');
  });

  it('says when no guard is configured, and counts changed paths in the singular', () => {
    const report = renderGuardReport(makeReport({ changed: ['one.txt'] }));
    expect(report).toContain('## Boundary check: passed (1 changed path since the run started)');
    expect(report).toContain('No guards are configured.');
  });

  it('shows missing notes as such', () => {
    expect(renderGuardReport(makeReport({ notesFirstLine: null }))).toContain('Notes status: (notes.md missing or empty)');
  });

  it('says how a check that did not exit normally ended', () => {
    const report = renderGuardReport(makeReport({
      checks: [
        makeCheck('guard', 'slow', { outcome: 'timed-out', exitCode: null, signal: 'SIGKILL' }),
        makeCheck('guard', 'quiet', { outcome: 'idle-timeout', exitCode: null, signal: 'SIGKILL' }),
        makeCheck('guard', 'missing', { outcome: 'spawn-failed', exitCode: null }),
      ],
    }));
    expect(report).toContain('### guard `slow` — FAIL (killed: guard-timeout reached, 1.5s)');
    expect(report).toContain('### guard `quiet` — FAIL (killed: no output, 1.5s)');
    expect(report).toContain('### guard `missing` — FAIL (could not start, 1.5s)');
    expect(report).toContain('3 of 3 guard(s) FAILED: slow, quiet, missing.');
  });

  it('1.3 a check killed by a signal names the signal (no guard result is silently swallowed)', () => {
    // run-check reports a guard that dies from a signal (segfault, OOM killer, `kill -9`) as
    // { outcome: 'exited', exitCode: null, signal: 'SIGSEGV' }; the worker must learn why it failed.
    const report = renderGuardReport(makeReport({ checks: [makeCheck('guard', 'tests', { exitCode: null, signal: 'SIGSEGV', excerpt: '' })] }));
    expect(report).toContain('### guard `tests` — FAIL');
    expect(report).toContain('SIGSEGV');
  });

  it('keeps a fenced excerpt intact: backtick fences inside the output cannot close it', () => {
    const report = renderGuardReport(makeReport({ checks: [makeCheck('guard', 'md', { excerpt: 'before\n```\ninjected\n```\nafter' })] }));
    const body = report.slice(report.indexOf('```text'));
    expect(body).toBe("```text\nbefore\n'''\ninjected\n'''\nafter\n```\n");
  });

  it('is pure: the same input renders the same text', () => {
    const input = makeReport({ checks: [makeCheck('guard', 'a'), makeCheck('periodic', 'p', { exitCode: 1 })] });
    expect(renderGuardReport(input)).toBe(renderGuardReport(structuredClone(input)));
  });
});

describe('issue 20.8: guard-results.md says what moved HEAD and how to recover the lost commit', () => {
  const expected = { branch: 'main', sha: 'a'.repeat(40) };
  it('names the switched branch and the lost commit, with the way back, and skips the guards', () => {
    const report = renderGuardReport(makeReport({
      violations: [{ path: 'HEAD', rule: null, head: { expected, now: { branch: 'other', sha: 'b'.repeat(40) }, lost: expected.sha } }],
    }));
    expect(report).toContain(`HEAD moved: yoke commits only onto branch \`main\`, on top of commit ${expected.sha}.`);
    expect(report).toContain('- HEAD switched from branch `main` to branch `other`: switch back with `git checkout main`');
    expect(report).toContain(`- commit ${expected.sha} is no longer on HEAD (HEAD is ${'b'.repeat(40)}): it was reset, rebased or amended away; bring it back with \`git reset --keep ${expected.sha}\``);
    expect(report).toContain('All guards were skipped');
    expect(report).not.toContain('Revert them');
  });
});
