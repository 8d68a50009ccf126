// The registry: names resolve to their base name; unknown names fall back to runUnknown.
import { describe, expect, it } from 'vitest';
import { shellClass } from '../support.js';

describe('commandFindings', () => {
  it('looks commands up by base name and versioned interpreter name', () => {
    expect(shellClass('/usr/bin/env rm -rf keep').class).toBe('destructive');
    expect(shellClass('./node_modules/.bin/curl x').class).toBe('network');
    expect(shellClass('python3.12 -c "import shutil; shutil.rmtree(1)"').class).toBe('destructive');
    expect(shellClass('frobnicate').reasons).toEqual(['`frobnicate` runs a program yoke has no rule for']);
  });
});
