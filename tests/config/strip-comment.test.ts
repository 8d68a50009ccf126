import { describe, expect, it } from 'vitest';
import { stripComment } from '../../config/strip-comment.js';

describe('stripComment', () => {
  it.each([
    ['# whole line', ''],
    ['guard t npm test # fast', 'guard t npm test '],
    ['guard t npm test\t#fast', 'guard t npm test\t'],
    ['curl http://x#y', 'curl http://x#y'],
    ['echo "a # b" # c', 'echo "a # b" '],
    ["echo 'a # b' # c", "echo 'a # b' "],
    ['echo \\# not a comment', 'echo \\# not a comment'],
    ['echo $# ${#x}', 'echo $# ${#x}'],
    ['echo "unterminated # quote', 'echo "unterminated # quote'],
    ['max-iterations 5#five', 'max-iterations 5#five'],
  ])('%j → %j', (raw, kept) => {
    expect(stripComment(raw)).toBe(kept);
  });
});
