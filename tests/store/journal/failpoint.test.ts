// store/journal/failpoint.ts: parsing YOKE_FAILPOINT and the stash step failpoints (the journal ones
// firing in a real process: tests/store/journal/file/file-journal-store.test.ts).
import { describe, expect, it } from 'vitest';
import { readFailpoint, stashStepper } from '../../../store/journal/failpoint.js';

describe('readFailpoint (YOKE_FAILPOINT)', () => {
  function read(value: string | undefined): { failpoint: ReturnType<typeof readFailpoint>; warnings: string[] } {
    const warnings: string[] = [];
    const env: NodeJS.ProcessEnv = value === undefined ? {} : { YOKE_FAILPOINT: value };
    return { failpoint: readFailpoint(env, (message) => warnings.push(message)), warnings };
  }

  it('is null and silent when unset or empty', () => {
    expect(read(undefined)).toEqual({ failpoint: null, warnings: [] });
    expect(read('')).toEqual({ failpoint: null, warnings: [] });
  });

  it.each([
    ['crash-after:1', { kind: 'crash-after', seq: 1 }],
    ['crash-after:42', { kind: 'crash-after', seq: 42 }],
    ['torn-at:7', { kind: 'torn-at', seq: 7 }],
    ['torn-at:1000', { kind: 'torn-at', seq: 1000 }],
  ])('parses %s', (value, expected) => {
    expect(read(value)).toEqual({ failpoint: expected, warnings: [] });
  });

  it.each(['crash-after:0', 'crash-after:', 'crash-after:x', 'crash-after:-3', 'torn-at:07', 'torn-at 3', 'boom:3', 'crash-after:3 ', ' torn-at:3', 'CRASH-AFTER:3'])(
    'ignores the malformed value %j with one warning naming it',
    (value) => {
      const { failpoint, warnings } = read(value);
      expect(failpoint).toBeNull();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`YOKE_FAILPOINT=${value}`);
      expect(warnings[0]).toContain('crash-after:<seq>');
    },
  );
});

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
