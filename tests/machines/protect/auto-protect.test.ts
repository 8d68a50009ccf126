// machines/protect/auto-protect.ts: what `protect auto` stands for, from the config's own commands,
// prd.yaml's story checks and the journeys' flow files (DESIGN §16).
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../config/parse-config.js';
import { parsePrd } from '../../../config/prd/parse-prd.js';
import { LIFECYCLE_REGISTRY } from '../../../machines/lifecycles/registry.js';
import { autoProtect, resolveProtectPatterns } from '../../../machines/protect/auto-protect.js';

function config(lines: string[]) {
  const parsed = parseConfig(`${lines.join('\n')}\n`, '.loop/yoke.conf', LIFECYCLE_REGISTRY);
  if (parsed.config === null) throw new Error(parsed.issues.map((issue) => issue.message).join('; '));
  return parsed.config;
}

const PRD = `stories:
  - id: S1
    title: Parser
    acceptance:
      - parses by hand
      - text: the parser check passes
        check: sh checks/parser.sh --strict
      - text: the page works
        check: journey:smoke
`;

const EXISTING = new Set(['checks/parser.sh', 'package.json', 'flows/smoke.yaml']);
const isFile = (path: string): boolean => EXISTING.has(path);

describe('autoProtect', () => {
  it('protects the script a story `check` runs, named after the story and criterion; a `journey:` check runs no command', () => {
    const stories = parsePrd(PRD, '.loop/prd.yaml').stories ?? [];
    const conf = config(['mode stories', 'agent claude', 'protect auto']);
    expect(autoProtect(conf, isFile, stories)).toContainEqual({ pattern: 'checks/parser.sh', why: 'named by `check S1#2`' });
    // without the stories (another lifecycle, or prd.yaml unread) the script is not inferred
    expect(autoProtect(conf, isFile).map((rule) => rule.pattern)).not.toContain('checks/parser.sh');
    expect(resolveProtectPatterns(conf, isFile, stories)).toContain('checks/parser.sh');
  });

  it('protects every journey\'s flow file, existing or not', () => {
    const conf = config(['mode goal', 'agent claude', 'accept tests npm test', 'journey smoke flows/smoke.yaml', 'journey login flows/login.yaml', 'base-url http://127.0.0.1:3000', 'protect auto']);
    const rules = autoProtect(conf, isFile);
    expect(rules).toContainEqual({ pattern: 'flows/smoke.yaml', why: 'the flow of `journey smoke`' });
    expect(rules).toContainEqual({ pattern: 'flows/login.yaml', why: 'the flow of `journey login`' });
    expect(rules).toContainEqual({ pattern: 'package.json', why: 'read by `npm` in `accept tests`' });
  });
});
