// setStoryPasses edits prd.yaml in place: only the story's `passes` value changes, every other byte stays.
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { setStoryPasses } from '../../../config/prd/set-story-passes.js';

const LONG = 'the greeting endpoint answers "hello, yoke" within 50 ms on a cold start, also behind the corporate proxy';

const PRD = `# The stories of the greeter.
stories:
  - id: S1   # the first one
    title: Greeting endpoint
    depends-on: [S0]
    acceptance:
      - ${LONG}
      - text: tested
        check: npm test -- greet   # runs fast
    passes: false   # yoke writes this
  # S0 comes first
  - id: S0
    title: 'Setup'
    acceptance: [ "a", b ]
  - {id: S2, title: Flow, acceptance: [x]}
`;

describe('setStoryPasses', () => {
  it('reflows nothing: comments, flow lists, quoting and a long criterion stay byte for byte; only the flag changes', () => {
    const next = setStoryPasses(PRD, 'S1', true);
    expect(next).toBe(PRD.replace('passes: false   # yoke writes this', 'passes: true   # yoke writes this'));
  });

  it('adds a missing flag as the story\'s last field, at its indentation, before the next story\'s comment', () => {
    const next = setStoryPasses(PRD, 'S0', true);
    expect(next).toBe(PRD.replace('    acceptance: [ "a", b ]\n', '    acceptance: [ "a", b ]\n    passes: true\n'));
    expect(parseDocument(next ?? '').toJS()).toMatchObject({ stories: [{ id: 'S1' }, { id: 'S0', passes: true }, { id: 'S2' }] });
  });

  it('adds it inside a flow mapping, and at the end of a file without a final newline', () => {
    expect(setStoryPasses(PRD, 'S2', true)).toBe(PRD.replace('acceptance: [x]}', 'acceptance: [x], passes: true}'));
    expect(setStoryPasses('stories:\n  - id: S1\n    title: x', 'S1', false)).toBe('stories:\n  - id: S1\n    title: x\n    passes: false');
  });

  it('returns the text unchanged when the flag is already so, and null for an unknown story or no story list', () => {
    expect(setStoryPasses(PRD, 'S1', false)).toBe(PRD);
    expect(setStoryPasses(PRD, 'S9', true)).toBeNull();
    expect(setStoryPasses('just: a map\n', 'S1', true)).toBeNull();
    expect(setStoryPasses('stories: [\n', 'S1', true)).toBeNull();
  });
});
