import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED } from '../../../effects/acceptance/secret-redactor.js';
import { secretValues } from '../../../effects/process/redact-secrets.js';

describe('createRedactor', () => {
  it('replaces every occurrence, longest value first; values under 4 characters are left', () => {
    const redactor = createRedactor(['hunter2', 'hunter2-long', 'abc', 'hunter2']);
    expect(redactor.longest).toBe(12);
    expect(redactor.redact('a hunter2-long b hunter2 c abc')).toBe(`a ${REDACTED} b ${REDACTED} c abc`);
  });
  it('without values it changes nothing', () => {
    expect(createRedactor([]).redact('x')).toBe('x');
  });
  it('redacts secret environment values too, as the journal marks them, and reaches as far as the longest of either', () => {
    const redactor = createRedactor(['fill-value'], secretValues({ SECRET_TOKEN: 'abc123', DB_URL: 'postgres://u:very-long-password@db/app' }, ['DB_URL']));
    expect(redactor.longest).toBe('postgres://u:very-long-password@db/app'.length);
    expect(redactor.redact('fill-value abc123 postgres://u:very-long-password@db/app')).toBe(`${REDACTED} [redacted $SECRET_TOKEN] [redacted $DB_URL]`);
    // an excerpt cut inside a secret: its fragment at the edge goes too
    expect(redactor.redact('…c123 tail')).toBe('…[redacted $SECRET_TOKEN] tail');
  });
});
