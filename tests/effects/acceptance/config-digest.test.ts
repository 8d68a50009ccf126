// effects/acceptance/config-digest.ts: the check's own digest, and the whole effective config's.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../config/parse-config.js';
import { checkConfigDigest, effectiveConfigDigest } from '../../../effects/acceptance/config-digest.js';
import { planAcceptanceCheck } from '../../../machines/acceptance/plan-acceptance-check.js';
import { LIFECYCLE_REGISTRY } from '../../../machines/lifecycles/registry.js';

function config(text: string) {
  const { config: parsed } = parseConfig(text, '.loop/yoke.conf', LIFECYCLE_REGISTRY);
  if (parsed === null) throw new Error('config did not parse');
  return parsed;
}

const CONF = 'mode goal\nagent claude\naccept tests npm test\nguard lint npm run lint\nbudget cost-usd 5\n';

describe('effectiveConfigDigest', () => {
  it('two files that say the same thing have the same digest: comments, blank lines and order of unrelated lines do not count', () => {
    const moved = '# the goal\nmode goal\n\nbudget cost-usd 5\nagent claude\naccept tests npm test   # unit tests\nguard lint npm run lint\n';
    expect(effectiveConfigDigest(config(moved))).toBe(effectiveConfigDigest(config(CONF)));
    expect(effectiveConfigDigest(config(CONF))).toMatch(/^[0-9a-f]{64}$/);
  });

  it('covers the whole config, not only the criteria: a guard, a budget or a default written out changes it when it changes a value', () => {
    const digest = effectiveConfigDigest(config(CONF));
    expect(effectiveConfigDigest(config(CONF.replace('npm run lint', 'npm run lint:strict')))).not.toBe(digest);
    expect(effectiveConfigDigest(config(CONF.replace('cost-usd 5', 'cost-usd 6')))).not.toBe(digest);
    expect(effectiveConfigDigest(config(`${CONF}max-iterations 7\n`))).not.toBe(digest);
    // the default spelled out is the same effective config
    const defaults = config(CONF);
    expect(effectiveConfigDigest(config(`${CONF}max-iterations ${defaults.maxIterations}\n`))).toBe(digest);
  });

  it('is not part of the check digest: the check digest of the same criteria does not move with the rest of the config', () => {
    const params = planAcceptanceCheck(config(CONF), 'latest');
    if (params === null) throw new Error('no criteria');
    expect(checkConfigDigest({ ...params, configDigest: 'a'.repeat(64) }, [])).toBe(checkConfigDigest(params, []));
  });
});
