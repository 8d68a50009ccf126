import { describe, expect, it } from 'vitest';
import { redactSecrets, secretValues } from '../../../effects/process/redact-secrets.js';

describe('secretValues', () => {
  it('takes variables whose names look secret, in any case, at least 6 characters long', () => {
    const env = {
      SECRET_TOKEN: 'abc123', API_KEY: 'k-0123456789', DB_PASSWORD: 'hunter22', aws_credential: 'AKIAxyzxyz',
      MY_SECRET: 'short', HOME: '/root', PATH: '/usr/bin', EMPTY_TOKEN: '',
    };
    expect(secretValues(env).map((s) => s.name).sort()).toEqual(['API_KEY', 'DB_PASSWORD', 'SECRET_TOKEN', 'aws_credential']);
  });
  it('adds the `redact` names, whatever they are called', () => {
    expect(secretValues({ DATABASE_URL: 'postgres://u:p@h/db', OTHER: 'not-a-secret' }, ['DATABASE_URL'])).toEqual([
      { name: 'DATABASE_URL', value: 'postgres://u:p@h/db' },
    ]);
  });
  it('also knows each line of a multi-line value (a PEM key) and its one-line form', () => {
    const values = secretValues({ PRIVATE_KEY: '-----BEGIN KEY-----\nAAAABBBBCCCC\nDDDDEEEE\n-----END KEY-----\n' }).map((s) => s.value);
    expect(values).toEqual(expect.arrayContaining(['AAAABBBBCCCC', 'DDDDEEEE', '-----BEGIN KEY----- AAAABBBBCCCC DDDDEEEE -----END KEY-----']));
  });
});

describe('redactSecrets', () => {
  const secrets = secretValues({ SECRET_TOKEN: 'abc123', LONG_TOKEN: 'abc123456789' });
  it('issue 20.6: replaces every occurrence with a mark naming the variable', () => {
    expect(redactSecrets('got abc123 twice: abc123', secrets)).toBe('got [redacted $SECRET_TOKEN] twice: [redacted $SECRET_TOKEN]');
  });
  it('replaces the longest value first, and never redacts a mark again', () => {
    expect(redactSecrets('abc123456789 and abc123', secrets)).toBe('[redacted $LONG_TOKEN] and [redacted $SECRET_TOKEN]');
    const nested = secretValues({ SECRET_TOKEN: 'SECRET_TOKEN_VALUE', B_KEY: 'redacted' });
    expect(redactSecrets('SECRET_TOKEN_VALUE', nested)).toBe('[redacted $SECRET_TOKEN]');
  });
  it('redacts a fragment cut off at the edge of an excerpt (… at its start or end)', () => {
    expect(redactSecrets('…3456789 failed', secrets)).toBe('…[redacted $LONG_TOKEN] failed');
    expect(redactSecrets('exit 1: token abc1234…', secrets)).toBe('exit 1: token [redacted $LONG_TOKEN]…');
    expect(redactSecrets('…89 failed', secrets)).toBe('…89 failed');
  });
  it('leaves text without secrets alone', () => {
    expect(redactSecrets('all good', secrets)).toBe('all good');
    expect(redactSecrets('abc12', secrets)).toBe('abc12');
    expect(redactSecrets('abc123', [])).toBe('abc123');
  });
});
