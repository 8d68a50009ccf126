// laneExpectation (DESIGN §10): where the journal says a lane's worktree stands before its next effect.
import { describe, expect, it } from 'vitest';
import { request } from '../../../machines/effects.js';
import { laneExpectation } from '../../../machines/parallel/lane-expectation.js';
import { freshLane, initialParallel, type Integration, type LaneSlot } from '../../../machines/parallel/parallel-state.js';
import type { WorkContext } from '../../../machines/work/work-context.js';

function contextWith(slot: Partial<LaneSlot>, integration: Partial<Integration> | null = null): WorkContext {
  const parallel = initialParallel({ branch: 'main', sha: 'target' });
  parallel.slots[1] = { ...freshLane('S1', 'ready', 2, 3), ...slot };
  if (integration) parallel.integration = { slot: 1, story: 'S1', rebased: null, plan: [], checks: [], now: null, rejection: null, ...integration };
  return { parallel } as WorkContext;
}
const check = request('check.run', { lane: 'S1', kind: 'accept', name: 'S1#1', command: 'true', iteration: 3, timeoutMs: 1000 });

describe('laneExpectation', () => {
  it('mid-turn: the worktree is on the lane\'s branch at the base it was cut from', () => {
    expect(laneExpectation(contextWith({ base: 'base' }), 'RUN1', check, 0))
      .toEqual({ story: 'S1', branch: 'yoke/RUN1/S1', commit: 'base', phase: 'turn', compareHead: true, attempt: 2 });
  });

  it('a committed candidate: at the candidate, and once integration rebased it, at the rebased commit', () => {
    expect(laneExpectation(contextWith({ base: 'base', candidate: 'cand' }), 'RUN1', check, 0)).toMatchObject({ commit: 'cand', phase: 'integration' });
    expect(laneExpectation(contextWith({ base: 'base', candidate: 'cand' }, { rebased: 'rebased' }), 'RUN1', check, 1)).toMatchObject({ commit: 'rebased', phase: 'integration', compareHead: true });
  });

  it('an effect that moves HEAD itself, cut short, is left to recover on its own: HEAD is not compared', () => {
    const commit = request('candidate.commit', { lane: 'S1', story: 'S1', base: 'base', message: 'feat(S1): x' });
    expect(laneExpectation(contextWith({ base: 'base' }), 'RUN1', commit, 1)).toMatchObject({ compareHead: false });
    expect(laneExpectation(contextWith({ base: 'base' }), 'RUN1', commit, 0)).toMatchObject({ compareHead: true });
  });

  it('nothing to check before an effect that needs no worktree or makes it, before the worktree was made, or outside a lane', () => {
    const create = request('worktree.create', { lane: 'S1', story: 'S1', branch: 'yoke/RUN1/S1', base: 'target', attempt: 2, reason: 'ready' });
    expect(laneExpectation(contextWith({ base: 'base' }), 'RUN1', create, 0)).toBeNull();
    expect(laneExpectation(contextWith({ base: null }), 'RUN1', check, 0)).toBeNull();
    expect(laneExpectation(contextWith({ base: 'base' }), 'RUN1', request('check.run', { kind: 'guard', name: 'g', command: 'true', iteration: 1, timeoutMs: 1000 }), 0)).toBeNull();
  });
});
