import { describe, expect, it } from 'vitest';
import { parseBaseUrl } from '../../config/parse-base-url.js';

describe('parseBaseUrl', () => {
  it.each([
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000'],
    ['http://127.0.0.1:3000/', 'http://127.0.0.1:3000'],
    ['https://example.invalid/app/', 'https://example.invalid/app'],
    ['HTTP://LOCALHOST:8080/App', 'http://localhost:8080/App'],
  ])('%s is %s (a flow path is appended to it)', (text, normal) => {
    expect(parseBaseUrl(text)).toEqual({ ok: true, value: normal });
  });

  it.each([
    ['localhost:3000', 'not an http or https'],
    ['ftp://x', 'not an http or https'],
    ['not a url', 'not a URL'],
    ['http://user:pw@localhost', 'credentials'],
    ['http://localhost/?a=1', 'query'],
    ['http://localhost/#top', 'fragment'],
    ['http://localhost/?', 'query'],
  ])('%s is refused (%s)', (text, says) => {
    const result = parseBaseUrl(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(says);
  });
});
