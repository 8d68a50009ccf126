// The live status line's text: stories mode shows how many stories passed.
import { describe, expect, it } from 'vitest';
import { statusLineText, type StatusLineFacts } from '../../cli/status-line-text.js';

const usage = { calls: 0, unknownCalls: 0, knownTokens: 0, knownCostUsd: 0, costUsd: null } as unknown as StatusLineFacts['usage'];
const facts: StatusLineFacts = { mode: 'stories', run: '01JD8XQ2M7ABCDEFGHJKMNPQRS', chunk: null, iteration: 3, maxIterations: 50, unit: 'iteration', phase: 'worker agent', elapsedMs: 133_000, usage, silentMs: null };

describe('statusLineText', () => {
  it('names the stories passed, of how many, in stories mode', () => {
    expect(statusLineText({ ...facts, progress: { passed: 2, total: 5, items: 'stories' } }, false)).toBe('yoke · stories 01JD8XQ2M7 · iteration 3/50 · 2/5 stories passed · worker agent · 2m13s');
  });

  it('says nothing about stories in other modes', () => {
    expect(statusLineText({ ...facts, mode: 'loop', progress: null }, false)).toBe('yoke · loop 01JD8XQ2M7 · iteration 3/50 · worker agent · 2m13s');
  });
});
