import { describe, expect, it } from 'vitest';
import { resolveFlowUrl } from '../../../effects/browser/run-step.js';

describe('resolveFlowUrl', () => {
  it('appends a path to base-url (keeping its own path) and normalizes', () => {
    expect(resolveFlowUrl('http://127.0.0.1:3000', '/')).toBe('http://127.0.0.1:3000/');
    expect(resolveFlowUrl('http://localhost:8080/app', '/login')).toBe('http://localhost:8080/app/login');
    expect(resolveFlowUrl('http://localhost:8080/app', '/a b?x=1')).toBe('http://localhost:8080/app/a%20b?x=1');
  });
  it('an absolute address is taken as it is', () => {
    expect(resolveFlowUrl('http://localhost:8080/app', 'https://example.invalid/done')).toBe('https://example.invalid/done');
  });
});
