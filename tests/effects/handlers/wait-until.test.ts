// `wait.until`: waits only what is left until the journaled moment, and stops at once on a signal.
import { describe, expect, it } from 'vitest';
import { EffectAborted, type EffectContext } from '../../../effects/handler.js';
import { waitUntil } from '../../../effects/handlers/wait-until.js';

function context(signal: AbortSignal): EffectContext {
  return {
    root: '/tmp', loopDir: '/tmp/.loop', run: 'run', key: 'run/1/0', signal,
    output: { stdout: () => undefined, stderr: () => undefined },
    recordProcess: () => undefined, warn: () => undefined,
  };
}

describe('wait.until', () => {
  it('waits until the moment (a retry after a crash waits only what is left) and never for a moment already past', async () => {
    const start = Date.now();
    const result = await waitUntil.execute({ until: start + 150, reason: 'test' }, context(new AbortController().signal));
    expect(Date.now() - start).toBeGreaterThanOrEqual(140);
    expect(result.waitedMs).toBeGreaterThanOrEqual(100);
    const past = await waitUntil.execute({ until: start - 60_000, reason: 'test' }, context(new AbortController().signal));
    expect(past.waitedMs).toBeLessThan(50);
    expect(waitUntil.policy).toBe('retry');
  });

  it('SIGINT during the wait rejects with EffectAborted at once', async () => {
    const controller = new AbortController();
    const pending = waitUntil.execute({ until: Date.now() + 60_000, reason: 'test' }, context(controller.signal));
    setTimeout(() => controller.abort('SIGINT'), 20);
    const start = Date.now();
    await expect(pending).rejects.toBeInstanceOf(EffectAborted);
    expect(Date.now() - start).toBeLessThan(5_000);
  });
});
