// cli/check-summary.ts: what `yoke check` prints for a report, line by line.
import { describe, expect, it } from 'vitest';
import { checkSummary } from '../../cli/check-summary.js';
import type { CheckReport } from '../../machines/acceptance/check-report.js';

const REPORT: CheckReport = {
  version: 1, label: 'latest', status: 'failed', startedAt: '2026-01-01T00:00:00.000Z', durationMs: 4321,
  criteria: [
    { name: 'tests', kind: 'command', status: 'passed', exitCode: 0, outcome: 'exited', durationMs: 1200, outputTail: '' },
    { name: 'slow', kind: 'command', status: 'failed', exitCode: null, outcome: 'timed-out', durationMs: 60_000, outputTail: '' },
    { name: 'profile', kind: 'journey', status: 'failed', exitCode: null, outcome: null, durationMs: 2500, outputTail: null },
    { name: 'home', kind: 'journey', status: 'failed', exitCode: null, outcome: null, durationMs: 300, outputTail: null },
  ],
  artifacts: [
    { path: 'dist/app.js', criteria: ['tests'], status: 'passed', reason: null, sha256: 'ab'.repeat(32), size: 15, before: { state: 'file', sha256: 'ab'.repeat(32), size: 15 }, after: { state: 'file', sha256: 'ab'.repeat(32), size: 15 } },
    { path: 'dist/none.js', criteria: ['tests'], status: 'failed', reason: 'missing', sha256: null, size: null, before: { state: 'missing', sha256: null, size: null }, after: { state: 'missing', sha256: null, size: null } },
  ],
  journeys: [
    {
      name: 'profile', flow: 'p.yaml', status: 'failed', category: 'timeout', durationMs: 2500, navigation: { status: 'passed', category: null, durationMs: 10 },
      steps: [{ index: 1, action: 'click', status: 'passed', category: null, durationMs: 1 }, { index: 2, action: 'expect-visible', status: 'failed', category: 'timeout', durationMs: 2000 }, { index: 3, action: 'reload', status: 'skipped', category: null, durationMs: 0 }],
      screenshot: 'profile.png', video: 'profile.webm',
    },
    { name: 'home', flow: 'h.yaml', status: 'failed', category: 'navigation-failed', durationMs: 300, navigation: { status: 'failed', category: 'navigation-failed', durationMs: 300 }, steps: [{ index: 1, action: 'reload', status: 'skipped', category: null, durationMs: 0 }], screenshot: null, video: null },
  ],
  source: { before: 'a'.repeat(40), after: 'b'.repeat(40), matches: false },
  config: { digest: 'c'.repeat(64), effective: 'e'.repeat(64), flows: [] },
  baseUrl: 'http://x',
  versions: { yoke: '0', node: 'v20', platform: 'linux', arch: 'x64', browser: '1' },
};

describe('checkSummary', () => {
  it('one line per criterion, artifact and the source tree, then the verdict', () => {
    expect(checkSummary(REPORT, '.loop/proof/latest')).toEqual([
      'pass  criterion tests (1.2s): exit 0',
      'FAIL  criterion slow (60.0s): timed-out',
      'FAIL  journey profile (2.5s): step 2 (expect-visible): timeout, 1 skipped; .loop/proof/latest/profile.png, .loop/proof/latest/profile.webm',
      'FAIL  journey home (0.3s): opening the page: navigation-failed, 1 skipped; no screenshot',
      `pass  artifact dist/app.js: sha256 ${'ab'.repeat(6)}…, 15 bytes (bound to tests)`,
      'FAIL  artifact dist/none.js: (missing)',
      `FAIL  source tree changed during the check (${'a'.repeat(12)} → ${'b'.repeat(12)})`,
      'check failed in 4.3s: .loop/proof/latest/report.json',
    ]);
  });
});
