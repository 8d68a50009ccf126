import { describe, expect, it } from 'vitest';
import { loopPath } from '../../../effects/fs/loop-path.js';

describe('loopPath', () => {
  it('joins names inside .loop/', () => {
    expect(loopPath('/p/.loop', 'plan.md')).toBe('/p/.loop/plan.md');
    expect(loopPath('/p/.loop', 'sub/x.md')).toBe('/p/.loop/sub/x.md');
    expect(loopPath('/p/.loop', 'a..b.md')).toBe('/p/.loop/a..b.md');
  });

  it('refuses empty, absolute and ..-segment names', () => {
    for (const bad of ['', '/etc/passwd', '../x', 'a/../../x', 'a\\..\\x']) {
      expect(() => loopPath('/p/.loop', bad)).toThrow(/not a file name inside \.loop/);
    }
  });
});
