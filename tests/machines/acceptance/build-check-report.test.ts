// machines/acceptance/build-check-report.ts: from observations to the report's verdicts, purely.
import { describe, expect, it } from 'vitest';
import type { AcceptanceCheckParams } from '../../../machines/acceptance/acceptance-check.js';
import { buildCheckReport, checkResultOf, type CheckObservations, type JourneyObservation } from '../../../machines/acceptance/build-check-report.js';
import { checkReportSchema, type ArtifactSnapshot } from '../../../machines/acceptance/check-report.js';

const PARAMS: AcceptanceCheckParams = {
  label: 'latest',
  criteria: [
    { kind: 'command', name: 'tests', command: 'npm test', timeoutMs: 0 },
    { kind: 'journey', name: 'smoke', flow: 'journeys/smoke.yaml' },
  ],
  artifacts: [{ path: 'dist/app.js', criteria: ['tests', 'smoke'] }, { path: 'dist/other.js', criteria: ['tests'] }],
  baseUrl: 'http://127.0.0.1:3000',
};

const FILE: ArtifactSnapshot = { state: 'file', sha256: 'a'.repeat(64), size: 10 };
const PASSED_JOURNEY: JourneyObservation = {
  failure: null, durationMs: 900, navigation: { status: 'passed', category: null, durationMs: 100 },
  steps: [{ index: 1, action: 'click', status: 'passed', category: null, durationMs: 50 }], screenshot: 'smoke.png', video: null,
};

function observations(over: Partial<CheckObservations> = {}): CheckObservations {
  return {
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1234,
    commands: { tests: { outcome: 'exited', exitCode: 0, durationMs: 300, outputTail: 'ok\n' } },
    journeys: { smoke: PASSED_JOURNEY },
    artifacts: { before: [FILE, FILE], after: [FILE, FILE] },
    source: { before: 'tree1', after: 'tree1' },
    config: { digest: 'd'.repeat(64), effective: 'e'.repeat(64), flows: [{ journey: 'smoke', sha256: 'f'.repeat(64) }] },
    versions: { yoke: '0.1.0', node: 'v20.20.0', platform: 'linux', arch: 'x64', browser: '156.0' },
    ...over,
  };
}

describe('buildCheckReport', () => {
  it('DESIGN §16: carries the protection digest; fails when the protected files differ from their baseline, never for a missing baseline', () => {
    const at = (digest: string, baseline: string | null) => buildCheckReport({ ...PARAMS, protection: { digest, baseline } }, observations());
    expect(at('a'.repeat(64), 'a'.repeat(64))).toMatchObject({ status: 'passed', protection: { digest: 'a'.repeat(64), baseline: 'a'.repeat(64), unchanged: true } });
    expect(at('b'.repeat(64), 'a'.repeat(64))).toMatchObject({ status: 'failed', protection: { unchanged: false } });
    expect(at('b'.repeat(64), null)).toMatchObject({ status: 'passed', protection: { baseline: null, unchanged: null } });
    expect(checkReportSchema.parse(at('b'.repeat(64), 'a'.repeat(64)))).toHaveProperty('protection');
    expect(buildCheckReport(PARAMS, observations())).not.toHaveProperty('protection');
  });

  it('DESIGN §16: with protected patterns the digest is the one the executor measured once the criteria ran, and a change fails the check and says so in the result', () => {
    const params: AcceptanceCheckParams = { ...PARAMS, protection: { patterns: ['tests/'], baseline: 'a'.repeat(64) } };
    const same = buildCheckReport(params, observations({ protectionDigest: 'a'.repeat(64) }));
    expect(same).toMatchObject({ status: 'passed', protection: { digest: 'a'.repeat(64), unchanged: true } });
    expect(checkResultOf(same, 'proof/latest/report.json', 'c'.repeat(64))).not.toHaveProperty('protectionChanged');
    const changed = buildCheckReport(params, observations({ protectionDigest: 'b'.repeat(64) }));
    expect(changed).toMatchObject({ status: 'failed', protection: { digest: 'b'.repeat(64), baseline: 'a'.repeat(64), unchanged: false } });
    expect(checkResultOf(changed, 'proof/latest/report.json', 'c'.repeat(64))).toMatchObject({ status: 'failed', protectionChanged: true });
    expect(() => buildCheckReport(params, observations())).toThrow(/without measuring them/);
  });

  it('passes when every criterion, binding and journey passed and the source did not change', () => {
    const report = buildCheckReport(PARAMS, observations());
    expect(checkReportSchema.parse(report)).toEqual(report);
    expect(report).toMatchObject({
      version: 1, label: 'latest', status: 'passed',
      criteria: [
        { name: 'tests', kind: 'command', status: 'passed', exitCode: 0, outcome: 'exited', outputTail: 'ok\n' },
        { name: 'smoke', kind: 'journey', status: 'passed', exitCode: null, outcome: null, outputTail: null },
      ],
      artifacts: [{ path: 'dist/app.js', status: 'passed', reason: null, sha256: FILE.sha256, size: 10 }, { status: 'passed' }],
      journeys: [{ name: 'smoke', flow: 'journeys/smoke.yaml', status: 'passed', category: null, screenshot: 'smoke.png' }],
      source: { before: 'tree1', after: 'tree1', matches: true },
      baseUrl: 'http://127.0.0.1:3000',
    });
    expect(checkResultOf(report, 'proof/latest/report.json', 'e'.repeat(64))).toEqual({
      outcome: 'completed', status: 'passed', exitCode: 0, report: { path: 'proof/latest/report.json', sha256: 'e'.repeat(64) },
      criteria: [
        { name: 'tests', kind: 'command', status: 'passed', exitCode: 0, outcome: 'exited', durationMs: 300, excerpt: 'ok\n' },
        { name: 'smoke', kind: 'journey', status: 'passed', exitCode: null, outcome: null, durationMs: 900, excerpt: '', category: null, failedStep: null },
      ],
      failedArtifacts: [],
      sourceMatches: true,
    });
  });

  it('a failing command fails the check and every binding that names it', () => {
    const report = buildCheckReport(PARAMS, observations({ commands: { tests: { outcome: 'exited', exitCode: 3, durationMs: 1, outputTail: '' } } }));
    expect(report.status).toBe('failed');
    expect(report.artifacts.map((artifact) => [artifact.status, artifact.reason])).toEqual([['failed', 'criterion-failed'], ['failed', 'criterion-failed']]);
    expect(checkResultOf(report, 'p', 's').exitCode).toBe(1);
  });

  it('a timed-out command fails even without an exit code', () => {
    const report = buildCheckReport(PARAMS, observations({ commands: { tests: { outcome: 'timed-out', exitCode: null, durationMs: 1, outputTail: '' } } }));
    expect(report.criteria[0]).toMatchObject({ status: 'failed', outcome: 'timed-out' });
  });

  it('an artifact changed between the snapshots, or missing in one, fails its binding only', () => {
    const changed: ArtifactSnapshot = { ...FILE, sha256: 'b'.repeat(64) };
    const report = buildCheckReport(PARAMS, observations({ artifacts: { before: [FILE, { state: 'missing', sha256: null, size: null }], after: [changed, FILE] } }));
    expect(report.artifacts.map((artifact) => [artifact.status, artifact.reason])).toEqual([['failed', 'changed'], ['failed', 'missing']]);
    expect(report.artifacts[0]).toMatchObject({ sha256: FILE.sha256, before: FILE, after: changed });
    expect(report.criteria.every((criterion) => criterion.status === 'passed')).toBe(true);
    expect(report.status).toBe('failed');
  });

  it('the first snapshot decides the reason first: a symlink before is a symlink', () => {
    const report = buildCheckReport(PARAMS, observations({ artifacts: { before: [{ state: 'symlink', sha256: null, size: null }, FILE], after: [{ state: 'missing', sha256: null, size: null }, { state: 'too-large', sha256: null, size: 1 }] } }));
    expect(report.artifacts.map((artifact) => artifact.reason)).toEqual(['symlink', 'too-large']);
  });

  it('a changed source tree fails a check whose criteria all passed', () => {
    const report = buildCheckReport(PARAMS, observations({ source: { before: 'tree1', after: 'tree2' } }));
    expect(report.source).toEqual({ before: 'tree1', after: 'tree2', matches: false });
    expect(report.status).toBe('failed');
  });

  it('a journey without a screenshot fails even when every step passed', () => {
    const report = buildCheckReport(PARAMS, observations({ journeys: { smoke: { ...PASSED_JOURNEY, screenshot: null } } }));
    expect(report.journeys[0]).toMatchObject({ status: 'failed', category: 'screenshot-failed' });
    expect(report.criteria[1]?.status).toBe('failed');
    expect(report.artifacts[0]?.reason).toBe('criterion-failed');
  });

  it('a failed journey keeps its category and evidence; one that never ran is a browser failure', () => {
    const failed: JourneyObservation = {
      ...PASSED_JOURNEY, failure: 'timeout', video: 'smoke.webm',
      steps: [{ index: 1, action: 'click', status: 'failed', category: 'timeout', durationMs: 10 }, { index: 2, action: 'reload', status: 'skipped', category: null, durationMs: 0 }],
    };
    expect(buildCheckReport(PARAMS, observations({ journeys: { smoke: failed } })).journeys[0]).toMatchObject({ status: 'failed', category: 'timeout', video: 'smoke.webm', steps: failed.steps });
    expect(buildCheckReport(PARAMS, observations({ journeys: {} })).journeys[0]).toMatchObject({ status: 'failed', category: 'browser-failed', screenshot: null });
  });
});
