import { describe, expect, it } from 'vitest';
import { EFFECT_KINDS } from '../../machines/effects.js';
import { handlers } from '../../effects/registry.js';

describe('handlers', () => {
  it('has a handler for every effect kind, reconcile handlers with a reconcile()', () => {
    expect(Object.keys(handlers).sort()).toEqual([...EFFECT_KINDS].sort());
    for (const kind of EFFECT_KINDS) {
      const handler = handlers[kind];
      expect(handler.policy === 'reconcile').toBe(typeof handler.reconcile === 'function');
    }
  });

  it('declares the recovery policy of each kind', () => {
    const policies = Object.fromEntries(EFFECT_KINDS.map((kind) => [kind, handlers[kind].policy]));
    expect(policies).toEqual({
      'baseline.capture': 'retry',
      'spec.restore': 'retry',
      'agent.spawn': 'surface',
      'notes.read': 'retry',
      'boundary.scan': 'retry',
      'check.run': 'retry',
      'acceptance.check': 'retry',
      'file.write': 'retry',
      'hook.fire': 'surface',
      'file.inspect': 'retry',
      'file.read': 'retry',
      'notes.reset': 'retry',
      'clock.read': 'retry',
      'wait.until': 'retry',
      'commit.create': 'reconcile',
      'story.pass': 'reconcile',
      'context.read': 'retry',
      'protect.scan': 'retry',
      'protect.restore': 'retry',
      'worktree.create': 'retry',
      'candidate.commit': 'retry',
      'candidate.rebase': 'retry',
      'candidate.reject': 'retry',
      'story.land': 'reconcile',
      'worktree.remove': 'retry',
    });
  });
});
