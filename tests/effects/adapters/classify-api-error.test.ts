import { describe, expect, it } from 'vitest';
import { apiMessage, classifyErrorText, classifyHttpStatus, statusInText } from '../../../effects/adapters/classify-api-error.js';

describe('classifyHttpStatus', () => {
  it.each([
    [401, 'auth-error'], [403, 'auth-error'], [429, 'rate-limited'], [500, 'server-error'], [502, 'server-error'],
    [503, 'server-error'], [529, 'server-error'], [408, 'server-error'], [400, 'crashed'], [404, 'crashed'],
  ])('%i → %s', (status, expected) => {
    expect(classifyHttpStatus(status)).toBe(expected);
  });
});

describe('classifyErrorText', () => {
  it('reads the status a message names, in the forms the CLIs write it', () => {
    expect(statusInText('unexpected status 401 Unauthorized: mock')).toBe(401);
    expect(statusInText('{"error":{"code":500,"message":"x"}}')).toBe(500);
    expect(statusInText('API Error: 529 overloaded')).toBe(529);
    expect(statusInText('  status: 429\n}')).toBe(429);
    expect(statusInText('at file.js:267833:24')).toBeNull();
  });

  it('falls back to well-known phrases, then to crashed with the message as detail', () => {
    expect(classifyErrorText('You exceeded your current quota')).toMatchObject({ classification: 'rate-limited' });
    expect(classifyErrorText('stream disconnected before completion')).toMatchObject({ classification: 'server-error' });
    expect(classifyErrorText('Invalid API key provided')).toMatchObject({ classification: 'auth-error' });
    expect(classifyErrorText("Missing API key for OpenAI-compatible auth. Set settings.security.auth.apiKey, or set the 'OPENAI_API_KEY' environment variable.")).toMatchObject({ classification: 'auth-error' });
    expect(classifyErrorText('something   odd\nhappened')).toEqual({ classification: 'crashed', detail: 'something odd happened' });
  });

  it('quotes the API\'s own message from inside a CLI\'s wrapping', () => {
    expect(apiMessage('[API Error: {"error":{"code":401,"message":"bad \\"key\\"","status":"UNAUTHENTICATED"}}]')).toBe('bad "key"');
    expect(apiMessage('[API Error: Resource exhausted.]\nPlease wait')).toBe('Resource exhausted.');
    expect(apiMessage('plain')).toBe('plain');
  });
});
