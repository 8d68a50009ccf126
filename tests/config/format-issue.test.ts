import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../config/format-issue.js';
import { parseConfig } from '../../config/parse-config.js';
import { LIFECYCLE_REGISTRY } from '../../machines/lifecycles/registry.js';

describe('formatIssue', () => {
  it('renders one compiler-style line with the hint in parentheses', () => {
    const [issue] = parseConfig('mode loop\nagent claude\nmax-iterations 0\n', '.loop/yoke.conf', LIFECYCLE_REGISTRY).issues;
    expect(issue && formatIssue(issue)).toBe('.loop/yoke.conf:3:16: error: `0` is not a whole number of 1 or more (use 1 or more, like 50)');
  });
  it('labels warnings and omits an empty hint', () => {
    const line = formatIssue({ file: 'f', line: 2, column: 3, message: 'odd', hint: '', severity: 'warning' });
    expect(line).toBe('f:2:3: warning: odd');
  });
});
