// Goal acceptance through the check engine (machines/work/goal-acceptance.ts), events in → effects
// out: a run whose journaled input says `acceptanceEngine: 'check'` requests one acceptance.check
// per attempt under its run id's label; a run recorded without it keeps its check.run accepts.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../config/parse-config.js';
import type { EffectResult } from '../../../machines/effects.js';
import { goalMachine } from '../../../machines/lifecycles/goal.js';
import { LIFECYCLE_REGISTRY } from '../../../machines/lifecycles/registry.js';
import { acceptanceFailureParts, renderAcceptance } from '../../../machines/work/goal-acceptance.js';
import { failureFingerprint } from '../../../machines/work/failure-fingerprint.js';
import type { WorkInput } from '../../../machines/work/work-context.js';
import { drive, makeInput, requestsOfKind, scriptedResponder } from '../support/loop-driver.js';

const RUN = '01JGOALRUN0000000000000000';

function goalInput(lines: string[], engine: boolean): WorkInput {
  const { config, issues } = parseConfig(`${['mode goal', 'agent cmd ./agent.sh', ...lines].join('\n')}\n`, '.loop/yoke.conf', LIFECYCLE_REGISTRY);
  if (config === null || issues.length > 0) throw new Error(JSON.stringify(issues));
  const input = makeInput(config, { specFiles: ['protocol.md', 'goal.md', 'yoke.conf'], diagnosePrompt: '\nDiagnose.' });
  return engine ? { ...input, run: RUN, acceptanceEngine: 'check' } : input;
}

const CONF = ['max-iterations 3', 'accept tests npm test', 'journey smoke journeys/smoke.yaml', 'artifact dist/app.js tests smoke', 'base-url http://127.0.0.1:3000', 'guard lint npm run lint', 'commit off'];

describe('goal acceptance with the check engine', () => {
  it('each attempt requests one acceptance.check (criteria, bindings, base URL, the run id as label) before the guards; a failed journey retries, a pass completes', () => {
    const run = drive(goalInput(CONF, true), scriptedResponder((iteration): { checks: Record<string, number> } => ({ checks: iteration === 1 ? { smoke: 2 } : {} })), { machine: goalMachine });
    expect(run.output).toMatchObject({ exitCode: 0, reason: 'goal-complete', iterations: 2 });
    const checks = requestsOfKind(run.requests, 'acceptance.check');
    expect(checks).toHaveLength(2);
    expect(checks[0]?.params).toEqual({
      label: RUN,
      criteria: [{ kind: 'command', name: 'tests', command: 'npm test', timeoutMs: 600_000 }, { kind: 'journey', name: 'smoke', flow: 'journeys/smoke.yaml' }],
      artifacts: [{ path: 'dist/app.js', criteria: ['tests', 'smoke'] }],
      baseUrl: 'http://127.0.0.1:3000',
    });
    // the accept commands run inside the check: only the guard is a check.run
    expect(requestsOfKind(run.requests, 'check.run').map((check) => check.params.name)).toEqual(['lint', 'lint']);
    expect(run.snapshot.context.lastProof).toEqual({ path: `proof/${RUN}/report.json`, sha256: 'd'.repeat(64), status: 'passed', iteration: 2 });
    const report = requestsOfKind(run.requests, 'file.write').find((write) => write.params.file === 'guard-results.md');
    expect(report?.params.content).toMatch(/## Acceptance: FAILED \(evidence: \.loop\/proof\/\w+\/report\.json\)/);
    expect(report?.params.content).toMatch(/### journey `smoke` — FAIL \(step 2 \(expect-text\): step-failed/);
  });

  it('the same journey failure three times blocks with no-progress', () => {
    const run = drive(goalInput(CONF, true), scriptedResponder(() => ({ checks: { smoke: 1 } })), { machine: goalMachine });
    expect(run.output).toMatchObject({ exitCode: 1, reason: 'no-progress', iterations: 3 });
  });

  it('a check that could not run (no browser) fails the attempt, with its message as feedback', () => {
    const refused: EffectResult<'acceptance.check'> = { outcome: 'refused', exitCode: 2, reason: 'browser-missing', message: 'no Chromium found; install it.', details: [] };
    const base = scriptedResponder(() => ({}));
    const run = drive(goalInput(['max-iterations 1', ...CONF.slice(1)], true), (request) => (request.kind === 'acceptance.check' ? refused : base(request)), { machine: goalMachine });
    expect(run.output).toMatchObject({ exitCode: 1, reason: 'attempts' });
    expect(run.snapshot.context.lastProof).toBeNull();
    expect(renderAcceptance(refused).join('\n')).toContain('## Acceptance: could not run\n\nno Chromium found; install it.');
    expect(failureFingerprint([], [], refused)).toBe(acceptanceFailureParts(refused).join('\n').replace(/\s+/g, ' '));
  });

  it('a run recorded without the engine flag runs its accepts as check.run requests, as before', () => {
    const run = drive(goalInput(CONF, false), scriptedResponder(() => ({})), { machine: goalMachine });
    expect(run.output).toMatchObject({ exitCode: 0, reason: 'goal-complete', iterations: 1 });
    expect(requestsOfKind(run.requests, 'acceptance.check')).toEqual([]);
    expect(requestsOfKind(run.requests, 'check.run').map((check) => [check.params.kind, check.params.name])).toEqual([['accept', 'tests'], ['guard', 'lint']]);
  });

  it('the goal descriptor journals the engine in every new run\'s input', () => {
    const goal = LIFECYCLE_REGISTRY.find((lifecycle) => lifecycle.name === 'goal');
    const config = goalInput(CONF, false).config;
    expect(goal?.input(config, () => '', '/x/.loop').acceptanceEngine).toBe('check');
  });
});
