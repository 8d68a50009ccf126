// Readers read their operands; pattern-first readers skip the pattern; word commands touch nothing.
import { describe, expect, it } from 'vitest';
import { shellClass } from '../support.js';

describe('read rules', () => {
  it('every operand of a file reader is read', () => {
    expect(shellClass('cat a b .env').paths).toEqual(['a', 'b', '.env']);
    expect(shellClass('cat -').paths).toEqual([]);
  });
  it('grep and jq skip their pattern, unless it comes by option', () => {
    expect(shellClass('grep .env README.md').class).toBe('read');
    expect(shellClass('grep -e x .env').class).toBe('secret');
    expect(shellClass('jq .key .env.json').class).toBe('secret');
    expect(shellClass('rg -f .env src').class).toBe('secret');
  });
  it('word commands name no files', () => {
    expect(shellClass('echo .env').class).toBe('read');
    expect(shellClass('test -f .env').class).toBe('read');
  });
});
