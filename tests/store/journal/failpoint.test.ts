// store/journal/failpoint.ts: the stash step failpoints (the journal ones are covered in journal.test.ts).
import { describe, expect, it } from 'vitest';
import { readFailpoint, stashStepper } from '../../../store/journal/failpoint.js';

describe('stash step failpoints', () => {
  it.each([
    ['stash-clear:5', { kind: 'stash-clear', seq: 5 }],
    ['stash-stage:1', { kind: 'stash-stage', seq: 1 }],
    ['stash-place:12', { kind: 'stash-place', seq: 12 }],
  ])('parses %s', (value, expected) => {
    const warnings: string[] = [];
    expect(readFailpoint({ YOKE_FAILPOINT: value }, (w) => warnings.push(w))).toEqual(expected);
    expect(warnings).toEqual([]);
  });

  it.each(['stash-clear:0', 'stash-move:3', 'stash-place:'])('ignores the malformed %j with a warning', (value) => {
    const warnings: string[] = [];
    expect(readFailpoint({ YOKE_FAILPOINT: value }, (w) => warnings.push(w))).toBeNull();
    expect(warnings[0]).toContain('stash-clear|stash-stage|stash-place:<n>');
  });

  it('a stepper for another phase, or with no failpoint, never fires', () => {
    const steps = [stashStepper(null, 'stash-clear'), stashStepper({ kind: 'stash-place', seq: 1 }, 'stash-clear'), stashStepper({ kind: 'crash-after', seq: 1 }, 'stash-stage')];
    // firing would SIGKILL this test worker; returning from 15 steps proves none fired
    expect(() => {
      for (const step of steps) for (let i = 0; i < 5; i += 1) step();
    }).not.toThrow();
  });
});
