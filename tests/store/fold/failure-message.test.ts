import { afterEach, describe, expect, it } from 'vitest';
import { request } from '../../../machines/effects.js';
import { failureMessage } from '../../../store/fold/failure-message.js';

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

describe('failureMessage', () => {
  it('an effect.failed message quoting a hook’s stderr loses secret values, the request’s redact names’ values and the store password', () => {
    process.env.SECRET_TOKEN = 'abc123';
    process.env.DB_URL = 'postgres://app:hunter22@db/app';
    const guard = request('check.run', { kind: 'guard', name: 'g', command: 'true', iteration: 1, timeoutMs: 0, redact: ['DB_URL'] });
    const error = new Error('git commit failed: pre-commit: abc123 postgres://app:hunter22@db/app store-pass-1');
    expect(failureMessage(error, guard, [{ name: 'YOKE_STORE', value: 'store-pass-1' }]))
      .toBe('git commit failed: pre-commit: [redacted $SECRET_TOKEN] [redacted $DB_URL] [redacted $YOKE_STORE]');
    expect(failureMessage('plain', guard)).toBe('plain');
  });
});
