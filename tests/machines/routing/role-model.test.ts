// The judge's and the scoper's model (machines/routing/role-model.ts).
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../config/parse-config.js';
import type { Config } from '../../../config/types.js';
import { roleModel } from '../../../machines/routing/role-model.js';
import { LIFECYCLE_REGISTRY } from '../../../machines/lifecycles/registry.js';

function config(lines: string[]): Config {
  const { config: parsed, issues } = parseConfig(`${['mode saga', ...lines].join('\n')}\n`, 'yoke.conf', LIFECYCLE_REGISTRY);
  if (!parsed) throw new Error(JSON.stringify(issues));
  return parsed;
}

describe('roleModel', () => {
  const named = config(['profile fast tier light model haiku claude', 'profile deep tier strong claude', 'profile wise model opus claude', 'agent fast', 'judge-agent deep', 'scoper-agent wise']);

  it('a role naming a profile runs with that profile\'s model, or none: never the worker\'s', () => {
    expect(roleModel(named, 'judge', true)).toBeNull();
    expect(roleModel(named, 'scoper', true)).toBe('opus');
  });

  it('runs journaled before fall back to the worker\'s model, as they did', () => {
    expect(roleModel(named, 'judge', false)).toBe('haiku');
  });

  it('a role without its own agent runs the worker\'s, with the worker\'s model', () => {
    const plain = config(['profile fast tier light model haiku claude', 'profile deep claude', 'agent fast']);
    expect(roleModel(plain, 'judge', true)).toBe('haiku');
    expect(roleModel(plain, 'scoper', true)).toBe('haiku');
  });
});
