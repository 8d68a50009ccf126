// validateCanon: the shipped canon is valid; each kind of mistake is named with file:line.
import { describe, expect, it } from 'vitest';
import { readCanonFiles } from '../../../effects/retrofit/read-canon-files.js';
import type { CanonFiles } from '../../../machines/retrofit/canon.js';
import { formatCanonIssue } from '../../../machines/retrofit/canon-issue.js';
import { validateCanon } from '../../../machines/retrofit/validate-canon.js';

const skill = (name: string, description = `Use when testing ${name}.`) => `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\nDo it.\n`;

function canon(overrides: Record<string, string | undefined> = {}, skillFolders = ['alpha']): CanonFiles {
  const files: Record<string, string | undefined> = {
    'manifest.yaml': 'version: 1\ninstructions: AGENTS.md\nskills:\n  - alpha\npolicy:\n  - policy/gates.md\ncontext:\n  - context/PROJECT.md\nagents:\n  claude: [instructions, skills, gate]\n',
    'AGENTS.md': '# Work\n',
    'skills/alpha/SKILL.md': skill('alpha'),
    'policy/gates.md': '# Gates\n',
    'context/PROJECT.md': '# Project\n',
    ...overrides,
  };
  return { files: new Map(Object.entries(files).filter((entry): entry is [string, string] => entry[1] !== undefined)), skillFolders };
}

const problems = (files: CanonFiles): string[] => validateCanon(files).issues.map((issue) => formatCanonIssue(issue));

describe('validateCanon', () => {
  it('accepts the canon yoke ships: every skill, both policies, the context templates, all three agents', async () => {
    const result = validateCanon(await readCanonFiles('canon'));
    expect(result.issues).toEqual([]);
    expect(result.canon?.skills.map((s) => s.name)).toEqual(['test-driven-development', 'investigate', 'review', 'plan-review', 'writing-acceptance-criteria', 'using-yoke', 'maintaining-context']);
    expect(Object.keys(result.canon?.agents ?? {})).toEqual(['claude', 'codex', 'gemini']);
    expect(result.canon?.instructions).toContain('## Skill routing');
  });

  it('accepts a minimal canon', () => {
    expect(problems(canon())).toEqual([]);
  });

  it.each([
    ['a skill without frontmatter', { 'skills/alpha/SKILL.md': '# alpha\n' }, ['alpha'], 'skills/alpha/SKILL.md:1: must start with a `---` line'],
    ['a name that is not its folder', { 'skills/alpha/SKILL.md': skill('beta') }, ['alpha'], 'skills/alpha/SKILL.md:2: name `beta` must equal its folder name `alpha`'],
    ['a missing description', { 'skills/alpha/SKILL.md': '---\nname: alpha\n---\nbody\n' }, ['alpha'], 'skills/alpha/SKILL.md:2: frontmatter needs `description`'],
    ['a name with capitals', { 'skills/alpha/SKILL.md': skill('Alpha') }, ['alpha'], 'skills/alpha/SKILL.md:2: name `Alpha` must be lowercase'],
    ['Gemini shell syntax in a body', { 'skills/alpha/SKILL.md': `${skill('alpha')}Run !{rm -rf /}.\n` }, ['alpha'], 'skills/alpha/SKILL.md:9: `!{` would run or inject text in a Gemini command'],
    ['a folder the manifest does not list', {}, ['alpha', 'stray'], 'skills/stray:1: is not listed under `skills:`'],
    ['a listed skill without a file', { 'skills/alpha/SKILL.md': undefined }, [], 'manifest.yaml:4: skill `alpha` has no skills/alpha/SKILL.md'],
    ['a skill listed twice', { 'manifest.yaml': 'version: 1\ninstructions: AGENTS.md\nskills:\n  - alpha\n  - alpha\npolicy: []\ncontext: []\nagents:\n  claude: [skills]\n' }, ['alpha'], 'manifest.yaml:5: skill `alpha` is listed twice (first on line 4)'],
    ['an artifact an agent does not support', { 'manifest.yaml': 'version: 1\ninstructions: AGENTS.md\nskills: [alpha]\npolicy: []\ncontext: []\nagents:\n  codex: [commands]\n' }, ['alpha'], 'manifest.yaml:7: codex has no `commands`'],
    ['an unknown agent', { 'manifest.yaml': 'version: 1\ninstructions: AGENTS.md\nskills: [alpha]\npolicy: []\ncontext: []\nagents:\n  cursor: [skills]\n' }, ['alpha'], 'manifest.yaml:7: unknown agent `cursor`'],
    ['a missing policy file', { 'policy/gates.md': undefined }, ['alpha'], 'manifest.yaml:6: policy file `policy/gates.md` does not exist'],
    ['broken YAML', { 'manifest.yaml': 'version: 1\nskills: [alpha\n' }, ['alpha'], 'manifest.yaml:'],
  ])('names %s with file:line', (_what, overrides, folders, expected) => {
    const found = problems(canon(overrides, folders));
    expect(found.some((line) => line.startsWith(expected)), found.join('\n')).toBe(true);
    expect(validateCanon(canon(overrides, folders)).canon).toBeNull();
  });

  it('refuses two skills with the same frontmatter name', () => {
    const files = canon({
      'manifest.yaml': 'version: 1\ninstructions: AGENTS.md\nskills: [alpha, beta]\npolicy: []\ncontext: []\nagents:\n  claude: [skills]\n',
      'skills/beta/SKILL.md': skill('alpha'),
    }, ['alpha', 'beta']);
    expect(problems(files)).toContain('skills/beta/SKILL.md:2: name `alpha` is already used by another skill');
  });
});
