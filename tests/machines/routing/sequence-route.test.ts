// Each sequence's rung (machines/routing/sequence-route.ts): gate failures climb, infrastructure
// failures never do, and sequences never share a rung.
import { describe, expect, it } from 'vitest';
import { INFRASTRUCTURE_FAILURES, noteWorkerCall, routeOf, sequenceKey, stepAfterAttempt } from '../../../machines/routing/sequence-route.js';

describe('sequence routes', () => {
  it('keys a call by its story, else its chunk, else the run', () => {
    expect(sequenceKey({ story: 'S1', chunk: 2 })).toBe('story:S1');
    expect(sequenceKey({ chunk: 2 })).toBe('chunk:2');
    expect(sequenceKey({ story: null, chunk: null })).toBe('run');
  });

  it('a gate failure after a call that ended normally climbs one rung and says why', () => {
    const routes = stepAfterAttempt(noteWorkerCall({}, 'run', 'ok'), 'run', 'attempt 1 failed accept shipped');
    expect(routeOf(routes, 'run')).toEqual({ step: 1, reason: 'attempt 1 failed accept shipped', lastCall: 'ok' });
    // an older adapter's call (no classification) is an ordinary one
    expect(routeOf(stepAfterAttempt(noteWorkerCall({}, 'run', undefined), 'run', 'x'), 'run').step).toBe(1);
  });

  it.each(INFRASTRUCTURE_FAILURES)('a gate failure after a %s call does not climb', (classification) => {
    const routes = stepAfterAttempt(noteWorkerCall({}, 'run', classification), 'run', 'attempt 1 failed accept shipped');
    expect(routeOf(routes, 'run')).toMatchObject({ step: 0, reason: null });
  });

  it('a model failure (max turns, permission denied) climbs like a gate failure', () => {
    for (const classification of ['max-turns', 'permission-denied'] as const) {
      expect(routeOf(stepAfterAttempt(noteWorkerCall({}, 'run', classification), 'run', 'x'), 'run').step).toBe(1);
    }
  });

  it('a passed attempt keeps the rung, and each sequence has its own', () => {
    let routes = stepAfterAttempt(noteWorkerCall({}, 'story:S1', 'ok'), 'story:S1', 'iteration 1 failed accept S1#1');
    routes = stepAfterAttempt(noteWorkerCall(routes, 'story:S1', 'ok'), 'story:S1', null);
    expect(routeOf(routes, 'story:S1').step).toBe(1);
    expect(routeOf(routes, 'story:S2')).toEqual({ step: 0, reason: null, lastCall: null });
  });
});
