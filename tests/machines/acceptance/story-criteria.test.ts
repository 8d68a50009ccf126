// machines/acceptance/story-criteria.ts: a story's checks as criteria, and what `yoke run` refuses in them.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../config/parse-config.js';
import { parsePrd } from '../../../config/prd/parse-prd.js';
import { criteriaOfStory, storyCheckIssues } from '../../../machines/acceptance/story-criteria.js';
import { LIFECYCLE_REGISTRY } from '../../../machines/lifecycles/registry.js';

function config(lines: string[]) {
  const { config: parsed } = parseConfig(`${['mode stories', 'agent claude', ...lines].join('\n')}\n`, '.loop/yoke.conf', LIFECYCLE_REGISTRY);
  if (parsed === null) throw new Error('config did not parse');
  return parsed;
}

const PRD = `stories:
  - id: S1
    title: One
    acceptance:
      - words only
      - text: smoke
        check: ' journey:smoke '
      - text: tests
        check: npm test
  - id: S2
    title: Two
    acceptance:
      - text: login
        check: journey:login
`;
const stories = parsePrd(PRD, '.loop/prd.yaml').stories ?? [];
const JOURNEY = ['journey smoke journeys/smoke.yaml', 'base-url http://127.0.0.1:3000'];

describe('criteriaOfStory', () => {
  it("a `journey:<name>` check runs the declared journey under the story's criterion name, naming the journey it shares", () => {
    const [s1] = stories;
    if (!s1) throw new Error('no story');
    expect(criteriaOfStory(config(JOURNEY), s1)).toEqual({
      criteria: [
        { kind: 'journey', name: 'S1#2', flow: 'journeys/smoke.yaml', journey: 'smoke' },
        { kind: 'command', name: 'S1#3', command: 'npm test', timeoutMs: expect.any(Number) as number },
      ],
      issues: [],
    });
  });
});

describe('storyCheckIssues', () => {
  it('an undeclared journey is an error on the story\'s line', () => {
    expect(storyCheckIssues(config(JOURNEY), stories).map((issue) => [issue.line, issue.message])).toEqual([
      [10, "story S2's criterion 1 checks `journey:login`, but yoke.conf declares no journey `login`"],
    ]);
  });

  it('with `parallel` every declared journey check is refused too: parallel lanes cannot run journeys', () => {
    const issues = storyCheckIssues(config([...JOURNEY, 'parallel 2', 'journey login journeys/login.yaml']), stories);
    expect(issues.map((issue) => [issue.line, issue.message, issue.hint])).toEqual([
      [2, "story S1's criterion 2 checks `journey:smoke`, but parallel lanes cannot run journeys yet", 'run the stories one at a time (drop --parallel and `parallel`), or check this criterion with a command'],
      [10, "story S2's criterion 1 checks `journey:login`, but parallel lanes cannot run journeys yet", expect.any(String)],
    ]);
    expect(storyCheckIssues(config(['parallel 2']), parsePrd('stories:\n  - id: S1\n    title: A\n    acceptance:\n      - text: t\n        check: npm test\n', 'p').stories ?? [])).toEqual([]);
  });
});
