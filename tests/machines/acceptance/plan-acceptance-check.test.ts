// machines/acceptance/plan-acceptance-check.ts: which criteria a check runs, decided from the config alone.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../config/parse-config.js';
import { acceptanceCheckParamsSchema } from '../../../machines/acceptance/acceptance-check.js';
import { planAcceptanceCheck } from '../../../machines/acceptance/plan-acceptance-check.js';
import { LIFECYCLE_REGISTRY } from '../../../machines/lifecycles/registry.js';

function config(lines: string[]) {
  const { config: parsed, issues } = parseConfig(`${['mode goal', 'agent claude', ...lines].join('\n')}\n`, '.loop/yoke.conf', LIFECYCLE_REGISTRY);
  expect(issues.filter((issue) => issue.severity === 'error')).toEqual([]);
  if (parsed === null) throw new Error('config did not parse');
  return parsed;
}

describe('planAcceptanceCheck', () => {
  it('runs every accept command, then every journey, and binds the artifacts', () => {
    const params = planAcceptanceCheck(config([
      'journey smoke journeys/smoke.yaml',
      'accept tests npm test',
      'guard-timeout 5m',
      'accept build npm run build',
      'artifact dist/app.js build smoke',
      'base-url http://127.0.0.1:3000/',
    ]), 'latest');
    expect(params).toEqual({
      label: 'latest',
      criteria: [
        { kind: 'command', name: 'tests', command: 'npm test', timeoutMs: 300_000 },
        { kind: 'command', name: 'build', command: 'npm run build', timeoutMs: 300_000 },
        { kind: 'journey', name: 'smoke', flow: 'journeys/smoke.yaml' },
      ],
      artifacts: [{ path: 'dist/app.js', criteria: ['build', 'smoke'] }],
      baseUrl: 'http://127.0.0.1:3000',
    });
    expect(acceptanceCheckParamsSchema.parse(params)).toEqual(params);
  });

  it('has no base URL without journeys, and is null without any criterion', () => {
    expect(planAcceptanceCheck(config(['accept t true', 'base-url http://x']), 'r1')?.baseUrl).toBeNull();
    const loop = parseConfig('mode loop\nagent claude\n', 'yoke.conf', LIFECYCLE_REGISTRY).config;
    expect(loop && planAcceptanceCheck(loop, 'latest')).toBeNull();
  });

  it('carries the `redact` names, and no `redact` key without one (so goal journals from before re-derive the same params)', () => {
    expect(planAcceptanceCheck(config(['accept a true', 'redact DB_URL', 'redact DSN']), 'r1')?.redact).toEqual(['DB_URL', 'DSN']);
    expect(planAcceptanceCheck(config(['accept a true']), 'r1')).not.toHaveProperty('redact');
  });

  it('is pure: the same config gives the same params', () => {
    const conf = config(['accept a true', 'journey j j.yaml', 'base-url http://x']);
    expect(planAcceptanceCheck(conf, 'x')).toEqual(planAcceptanceCheck(structuredClone(conf), 'x'));
  });
});
