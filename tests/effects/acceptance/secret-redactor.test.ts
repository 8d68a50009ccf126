import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED } from '../../../effects/acceptance/secret-redactor.js';

describe('createRedactor', () => {
  it('replaces every occurrence, longest value first; values under 4 characters are left', () => {
    const redactor = createRedactor(['hunter2', 'hunter2-long', 'abc', 'hunter2']);
    expect(redactor.longest).toBe(12);
    expect(redactor.redact('a hunter2-long b hunter2 c abc')).toBe(`a ${REDACTED} b ${REDACTED} c abc`);
  });
  it('without values it changes nothing', () => {
    expect(createRedactor([]).redact('x')).toBe('x');
  });
});
