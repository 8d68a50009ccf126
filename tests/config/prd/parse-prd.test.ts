import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../../config/format-issue.js';
import { parsePrd } from '../../../config/prd/parse-prd.js';

const FILE = '.loop/prd.yaml';
const errors = (text: string) => parsePrd(text, FILE).issues.filter((issue) => issue.severity === 'error').map(formatIssue);

describe('parsePrd', () => {
  it('reads stories with text and executable criteria, defaults and optional fields', () => {
    const { stories, issues } = parsePrd([
      'stories:',
      '  - id: S1',
      '    title: Greeting endpoint',
      '    priority: 1',
      '    depends-on: []',
      '    acceptance:',
      '      - GET /hello answers "hello, yoke"',
      '      - text: the greeting is tested',
      '        check: npm test -- greet',
      '    passes: false',
      '  - id: S2',
      '    title: Farewell',
      '    depends-on: [S1]',
      '    description: say goodbye',
      '',
    ].join('\n'), FILE);
    expect(issues).toEqual([]);
    expect(stories).toEqual([
      { id: 'S1', title: 'Greeting endpoint', priority: 1, dependsOn: [], acceptance: [{ text: 'GET /hello answers "hello, yoke"' }, { text: 'the greeting is tested', check: 'npm test -- greet' }], passes: false, line: 2 },
      { id: 'S2', title: 'Farewell', priority: null, dependsOn: ['S1'], acceptance: null, passes: false, description: 'say goodbye', line: 11 },
    ]);
  });

  it('names file:line:column of bad YAML, an empty list and a missing list', () => {
    expect(errors('stories:\n  - id: [\n')[0]).toMatch(/^\.loop\/prd\.yaml:\d+:\d+: error: prd\.yaml is not valid YAML/);
    expect(errors('stories: []\n')).toEqual(['.loop/prd.yaml:1:10: error: the story list is empty (write at least one story as `- id: S1` with a `title` and `acceptance` below it; see docs/stories.md for the prd.yaml format)']);
    expect(errors('')[0]).toMatch(/^\.loop\/prd\.yaml:1:1: error: prd\.yaml is empty/);
    // a file that is not there is named as missing, not as empty
    expect(parsePrd(null, '.loop/prd.yaml').issues.map(formatIssue)).toEqual(['.loop/prd.yaml:1:1: error: prd.yaml is missing (write the story list there or convert one with `yoke stories import <file>`; `yoke init stories` writes a template)']);
    expect(errors('items: []\n')[0]).toMatch(/prd\.yaml has no `stories:` list/);
  });

  it('refuses duplicate ids at the second, unknown dependencies at the entry, and names a cycle at its first story', () => {
    const story = (id: string, deps = '[]') => `  - id: ${id}\n    title: t${id}\n    depends-on: ${deps}\n    acceptance: [ok]\n`;
    expect(errors(`stories:\n${story('S1')}${story('S1')}`)).toEqual(['.loop/prd.yaml:6:1: error: story id `S1` is used twice (first at line 2) (give every story its own id)']);
    expect(errors(`stories:\n${story('S1', '[S9]')}`)).toEqual(['.loop/prd.yaml:4:18: error: story S1 depends on `S9`, which is not a story here (name an id of this file; did you mean `S1`?)']);
    expect(errors(`stories:\n${story('S0')}${story('S1', '[S3]')}${story('S2', '[S1]')}${story('S3', '[S2]')}`)).toEqual([
      '.loop/prd.yaml:6:1: error: the stories depend on each other in a cycle: S1 → S3 → S2 → S1 (remove one of these `depends-on` entries)',
    ]);
  });

  it('refuses a story with no title, a passes that is not a boolean, an unsafe id and wrong types', () => {
    expect(errors('stories:\n  - id: S1\n    acceptance: [x]\n')).toEqual(['.loop/prd.yaml:2:5: error: story S1 has no `title` (add `title: <what the story delivers>`)']);
    expect(errors('stories:\n  - id: S1\n    title: x\n    passes: "yes"\n')).toEqual(['.loop/prd.yaml:4:13: error: `passes` of story S1 is not a boolean (write `passes: false` (yoke sets it to true when the story passes))']);
    expect(errors('stories:\n  - id: ../etc\n    title: x\n')[0]).toMatch(/^\.loop\/prd\.yaml:2:9: error: `\.\.\/etc` is not a safe story id/);
    expect(errors('stories:\n  - id: S1\n    title: x\n    priority: high\n')[0]).toMatch(/:4:15: error: the `priority` of story S1 is not a number/);
    expect(errors('stories:\n  - id: S1\n    title: x\n    acceptance: yes\n')[0]).toMatch(/:4:17: error: `acceptance` of story S1 is not a list/);
    expect(errors('stories:\n  - id: S1\n    title: x\n    depends_on: []\n')[0]).toMatch(/:4:5: error: story S1 has no field `depends_on` \(.*did you mean `depends-on`\?\)/);
  });

  it('keeps a story with no or empty acceptance (Stop-the-Line happens when it is selected, not here)', () => {
    const { stories } = parsePrd('stories:\n  - id: S1\n    title: x\n    acceptance: []\n  - id: S2\n    title: y\n', FILE);
    expect(stories?.map((s) => s.acceptance)).toEqual([[], null]);
  });
});
