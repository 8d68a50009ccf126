import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../config/parse-config.js';
import type { Config } from '../../../config/types.js';
import { economicChoice } from '../../../machines/routing/economic-choice.js';
import type { RoutingSequence } from '../../../machines/routing/routing-sequence.js';
import { LIFECYCLE_REGISTRY as LIFECYCLE_CATALOG } from '../../../machines/lifecycles/registry.js';

function config(objective: 'cost' | 'speed' | 'balanced', names: string[]): Config {
  const text = ['mode goal', 'accept t true', ...names.map((name) => `profile ${name} cmd ./${name}.sh`), `agent ${names[0] ?? 'a'}`, `routing economic objective ${objective} min-samples 10`].join('\n');
  const { config: parsed, issues } = parseConfig(`${text}\n`, 'yoke.conf', LIFECYCLE_CATALOG);
  if (!parsed) throw new Error(JSON.stringify(issues));
  return parsed;
}

const sequence = (profile: string, accepted: boolean, costUsd: number | null, durationMs = 1000): RoutingSequence => ({
  run: 'R', unit: 'run', taskClass: 'goal/worker/x', profile, attempts: 1, accepted, complete: true, costUsd, unknownTokens: false, partial: false, infrastructure: false, durationMs,
});

describe('economicChoice', () => {
  it('replaces the baseline only with no fewer accepted sequences and a better cost per accepted one', () => {
    const ledger = [
      ...Array.from({ length: 10 }, (_, i) => sequence('a', i % 2 === 0, 0.01)),
      ...Array.from({ length: 10 }, () => sequence('b', true, 0.008)),
    ];
    const decision = economicChoice(config('cost', ['a', 'b']), ledger, 'goal/worker/x');
    expect(decision?.start).toBe('b');
    expect(decision?.evidence.map((e) => [e.profile, e.accepted])).toEqual([['a', 5], ['b', 10]]);
    expect(decision?.evidence[0]?.costPerAccepted).toBeCloseTo(0.02, 9);
    expect(decision?.evidence[1]?.costPerAccepted).toBeCloseTo(0.008, 9);
  });

  it('ignores sequences of another task class, and an unknown cost makes a window ineligible', () => {
    const ledger = [
      ...Array.from({ length: 10 }, () => sequence('a', true, 0.02)),
      ...Array.from({ length: 9 }, () => sequence('b', true, 0.001)),
      sequence('b', true, null),
      ...Array.from({ length: 10 }, () => ({ ...sequence('c', true, 0.0001), taskClass: 'loop/worker/y' })),
    ];
    const decision = economicChoice(config('cost', ['a', 'b', 'c']), ledger, 'goal/worker/x');
    expect(decision?.start).toBe('a');
    expect(decision?.evidence.find((e) => e.profile === 'b')?.why).toMatch(/reported no cost/);
    expect(decision?.evidence.find((e) => e.profile === 'c')?.samples).toBe(0);
  });

  it('balanced needs no worse on both and better on one', () => {
    const ledger = [
      ...Array.from({ length: 10 }, () => sequence('a', true, 0.02, 1000)),
      ...Array.from({ length: 10 }, () => sequence('b', true, 0.01, 5000)),
    ];
    expect(economicChoice(config('balanced', ['a', 'b']), ledger, 'goal/worker/x')?.start).toBe('a');
    expect(economicChoice(config('cost', ['a', 'b']), ledger, 'goal/worker/x')?.start).toBe('b');
    expect(economicChoice(config('speed', ['a', 'b']), ledger, 'goal/worker/x')?.start).toBe('a');
  });

  it('partial usage makes a window ineligible under every objective: one sequence with an unknown cost among known ones, or a call without token counts', () => {
    const known = Array.from({ length: 10 }, () => sequence('a', true, 0.02));
    const oneUnknown = [...Array.from({ length: 9 }, () => sequence('b', true, 0.001, 10)), sequence('b', true, null, 10)];
    for (const objective of ['cost', 'speed', 'balanced'] as const) {
      const decision = economicChoice(config(objective, ['a', 'b']), [...known, ...oneUnknown], 'goal/worker/x');
      expect(decision?.start, objective).toBe('a');
      expect(decision?.evidence.find((e) => e.profile === 'b'), objective).toMatchObject({ eligible: false, costUsd: null, why: 'a call in the window reported no cost (unknown is never zero)' });
    }
    const tokensUnknown = Array.from({ length: 10 }, (_, i) => ({ ...sequence('b', true, 0.001, 10), unknownTokens: i === 4 }));
    const decision = economicChoice(config('balanced', ['a', 'b']), [...known, ...tokensUnknown], 'goal/worker/x');
    expect(decision?.start).toBe('a');
    expect(decision?.evidence.find((e) => e.profile === 'b')?.why).toBe('a call in the window reported no token counts: its usage is partial');
  });

  it('a worker call that ended in an infrastructure failure makes its window ineligible: it is no evidence of the model', () => {
    const ledger = [...Array.from({ length: 10 }, () => sequence('a', true, 0.02)), ...Array.from({ length: 10 }, (_, i) => ({ ...sequence('b', true, 0.001), infrastructure: i === 9 }))];
    const decision = economicChoice(config('cost', ['a', 'b']), ledger, 'goal/worker/x');
    expect(decision?.start).toBe('a');
    expect(decision?.evidence.find((e) => e.profile === 'b')?.why).toMatch(/infrastructure failure/);
    expect(economicChoice(config('cost', ['a', 'b']), ledger, 'goal/worker/x', false)?.start).toBe('b');
  });

  it('decisions journaled before sequence routing are re-derived by their own rules: speed ignored unknown cost, and an empty window cost $0', () => {
    const ledger = [...Array.from({ length: 10 }, () => sequence('a', true, 0.02, 5000)), ...Array.from({ length: 10 }, () => sequence('b', true, null, 1000))];
    expect(economicChoice(config('speed', ['a', 'b']), ledger, 'goal/worker/x', false)?.start).toBe('b');
    expect(economicChoice(config('speed', ['a', 'b']), ledger, 'goal/worker/x')?.start).toBe('a');
    const empty = economicChoice(config('cost', ['a', 'c']), ledger, 'goal/worker/x', false)?.evidence.find((e) => e.profile === 'c');
    expect(empty).toMatchObject({ samples: 0, costUsd: 0 });
    expect(economicChoice(config('cost', ['a', 'c']), ledger, 'goal/worker/x')?.evidence.find((e) => e.profile === 'c')).toMatchObject({ samples: 0, costUsd: null });
  });

  it('equal scores keep file order, and only the latest min-samples complete sequences count', () => {
    const ledger = [
      ...Array.from({ length: 10 }, () => sequence('a', true, 0.02)),
      ...Array.from({ length: 10 }, () => sequence('c', true, 0.01)),
      ...Array.from({ length: 10 }, () => sequence('b', true, 0.01)),
    ];
    expect(economicChoice(config('cost', ['a', 'b', 'c']), ledger, 'goal/worker/x')?.start).toBe('b');
    expect(economicChoice(config('cost', ['a', 'c', 'b']), ledger, 'goal/worker/x')?.start).toBe('c');
    // ten old failures of b, then ten passes: the window is the passes; an open sequence is no evidence
    const later = [...Array.from({ length: 10 }, () => sequence('b', false, 0.01)), ...ledger, { ...sequence('b', false, 0.5), complete: false }];
    expect(economicChoice(config('cost', ['a', 'b']), later, 'goal/worker/x')?.evidence.find((e) => e.profile === 'b')).toMatchObject({ samples: 10, accepted: 10 });
  });

  const arbitrarySequence = fc.record({
    profile: fc.constantFrom('a', 'b', 'c'),
    accepted: fc.boolean(),
    costUsd: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null, freq: 8 }),
    durationMs: fc.integer({ min: 1, max: 100_000 }),
    complete: fc.boolean(),
    partial: fc.boolean(),
  }).map((s) => ({ ...s, run: 'R', unit: 'run', taskClass: 'goal/worker/x', attempts: 1, unknownTokens: false, infrastructure: false }));

  it('property: never prefers a profile with fewer accepted sequences than the baseline, and an unknown cost never makes a profile cheaper', () => {
    fc.assert(fc.property(fc.array(arbitrarySequence, { maxLength: 80 }), fc.constantFrom('cost', 'speed', 'balanced'), (ledger, objective) => {
      const decision = economicChoice(config(objective, ['a', 'b', 'c']), ledger, 'goal/worker/x');
      if (!decision) return;
      const chosen = decision.evidence.find((e) => e.profile === decision.start);
      const baseline = decision.evidence.find((e) => e.profile === decision.baseline);
      if (decision.start !== decision.baseline) {
        expect(chosen?.eligible && baseline?.eligible).toBe(true);
        expect(chosen?.accepted ?? 0).toBeGreaterThanOrEqual(baseline?.accepted ?? 0);
      }
      // Unknown cost: turning a known cost into unknown never makes that profile the choice when it was not.
      const withUnknown = ledger.map((s) => (s.profile === 'b' ? { ...s, costUsd: null } : s));
      const after = economicChoice(config(objective, ['a', 'b', 'c']), withUnknown, 'goal/worker/x');
      if (decision.start !== 'b') expect(after?.start).not.toBe('b');
    }), { numRuns: 300 });
  });
});

describe('routing directives', () => {
  const parse = (lines: string[]) => parseConfig(`${['mode goal', 'accept t true', ...lines].join('\n')}\n`, '.loop/yoke.conf', LIFECYCLE_CATALOG);
  const errors = (lines: string[]) => parse(lines).issues.filter((i) => i.severity === 'error').map((i) => `${i.line}:${i.column} ${i.message}`);

  it('reads profiles and resolves agent <profile> into its agent and model', () => {
    const { config: parsed } = parse(['profile fast tier light model haiku claude', 'profile deep tier strong model opus cmd ./deep.sh --hard', 'agent deep', 'max-tier strong']);
    expect(parsed).toMatchObject({ agent: { kind: 'cmd', command: './deep.sh --hard' }, model: 'opus', agentProfile: 'deep', maxTier: 'strong' });
    expect(parsed?.profiles?.map((p) => [p.name, p.tier, p.model])).toEqual([['fast', 'light', 'haiku'], ['deep', 'strong', 'opus']]);
  });

  it('refuses an unknown profile, a duplicate name, a bad tier, min-samples below 10 and economic with one profile, naming the line', () => {
    expect(errors(['agent nosuch'])).toEqual(['3:7 `nosuch` is not a known agent or profile']);
    expect(errors(['profile a claude', 'profile a codex', 'agent a'])).toEqual(['4:9 the profile `a` is already declared on line 3']);
    expect(errors(['profile a tier huge claude', 'agent claude'])).toEqual(['3:16 `huge` is not a tier']);
    expect(errors(['profile a claude', 'profile b codex', 'agent a', 'routing economic min-samples 5'])).toEqual(['6:30 `min-samples 5` is below 10']);
    expect(errors(['profile a claude', 'agent a', 'routing economic'])).toEqual([expect.stringMatching(/^5:1 `routing economic` needs at least two `profile` lines/)]);
  });
});
