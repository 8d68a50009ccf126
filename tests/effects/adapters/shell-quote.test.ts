import { describe, expect, it } from 'vitest';
import { shellQuote } from '../../../effects/adapters/shell-quote.js';

describe('shellQuote', () => {
  it('leaves plain words bare and single-quotes everything else', () => {
    expect(shellQuote('gpt-5.5')).toBe('gpt-5.5');
    expect(shellQuote('claude-opus-4-8[1m]')).toBe("'claude-opus-4-8[1m]'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote('')).toBe("''");
  });
});
