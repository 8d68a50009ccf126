// The worker's profile per attempt (machines/routing/worker-route.ts for runs that route by
// sequence; escalation-ladder.ts for runs journaled before): rungs, caps, ties, models, reasons.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../config/parse-config.js';
import type { Config } from '../../../config/types.js';
import { workerChoice } from '../../../machines/routing/escalation-ladder.js';
import type { SequenceRoute } from '../../../machines/routing/sequence-route.js';
import { routedWorker } from '../../../machines/routing/worker-route.js';
import { LIFECYCLE_REGISTRY } from '../../../machines/lifecycles/registry.js';

function config(lines: string[]): Config {
  const { config: parsed, issues } = parseConfig(`${['mode goal', 'accept t true', ...lines].join('\n')}\n`, 'yoke.conf', LIFECYCLE_REGISTRY);
  if (!parsed) throw new Error(JSON.stringify(issues));
  return parsed;
}

const at = (step: number, reason: string | null = step === 0 ? null : `attempt ${step} failed accept t`): SequenceRoute => ({ step, reason, lastCall: 'ok' });
const PROFILES = ['profile fast tier light model haiku claude', 'profile spare tier light model mini claude', 'profile deep tier strong claude', 'profile big tier frontier model opus claude'];

describe('routedWorker (escalate)', () => {
  const escalate = config([...PROFILES, 'agent fast', 'routing escalate']);

  it('climbs one tier per failed attempt, never sideways to a second profile of the same tier', () => {
    expect([0, 1, 2].map((step) => routedWorker(escalate, at(step), null).profile)).toEqual(['fast', 'deep', 'big']);
  });

  it('stays on the top rung, capped by max-tier', () => {
    const capped = config([...PROFILES, 'agent fast', 'routing escalate', 'max-tier strong']);
    expect([0, 1, 2, 5].map((step) => routedWorker(capped, at(step), null).profile)).toEqual(['fast', 'deep', 'deep', 'deep']);
    expect(routedWorker(capped, at(2), null).routeReason).toBe('escalate: deep (strong) is the top rung, kept after attempt 2 failed accept t');
  });

  it('runs each profile with its own model: one without a model gets none, never the `agent` profile\'s', () => {
    expect([0, 1, 2].map((step) => routedWorker(escalate, at(step), null).model)).toEqual(['haiku', null, 'opus']);
  });

  it('a `model` line is the `agent` profile\'s model, and only its', () => {
    const withLine = config([...PROFILES, 'agent fast', 'model sonnet', 'routing escalate']);
    expect([0, 1].map((step) => routedWorker(withLine, at(step), null).model)).toEqual(['sonnet', null]);
  });

  it('says why each attempt runs on its rung', () => {
    expect(routedWorker(escalate, at(0), null).routeReason).toBe('escalate: fast (light) is the first rung of 3');
    expect(routedWorker(escalate, at(1), null).routeReason).toBe('escalate: up to deep (strong), rung 2 of 3, after attempt 1 failed accept t');
  });

  it('falls back to the `agent` line when max-tier leaves no rung', () => {
    const empty = config(['profile deep tier strong model opus claude', 'profile big tier frontier codex', 'agent codex', 'routing escalate', 'max-tier light']);
    expect(routedWorker(empty, at(1), null)).toEqual({ agent: { kind: 'codex' }, model: null });
  });
});

describe('routedWorker (economic and fixed)', () => {
  it('economic: the journaled start runs with its own model', () => {
    const economic = config([...PROFILES, 'agent fast', 'routing economic']);
    expect(routedWorker(economic, at(0), 'deep')).toEqual({ agent: { kind: 'claude' }, model: null, profile: 'deep' });
    expect(routedWorker(economic, at(0), 'big')).toMatchObject({ model: 'opus', profile: 'big' });
    expect(routedWorker(economic, at(0), 'fast')).toMatchObject({ model: 'haiku', profile: 'fast' });
  });

  it('fixed: the `agent` line, its profile named', () => {
    expect(routedWorker(config([...PROFILES, 'agent spare']), at(3), null)).toEqual({ agent: { kind: 'claude' }, model: 'mini', profile: 'spare' });
    expect(routedWorker(config(['agent codex', 'model o3']), at(0), null)).toEqual({ agent: { kind: 'codex' }, model: 'o3' });
  });
});

describe('workerChoice (runs journaled before routing followed sequences)', () => {
  it('keeps the old ladder, by profile, and the `agent` model as every unmodelled profile\'s fallback', () => {
    const escalate = config([...PROFILES, 'agent fast', 'routing escalate']);
    expect([0, 1, 2, 3].map((step) => workerChoice(escalate, step, null).profile)).toEqual(['fast', 'spare', 'deep', 'big']);
    expect(workerChoice(escalate, 2, null).model).toBe('haiku');
  });
});
