// `wait.until`: sleep until a moment the machine decided (a rate limit's end), abortable by SIGINT/SIGTERM.
import { setTimeout as sleep } from 'node:timers/promises';
import { EffectAborted, type EffectHandler } from '../handler.js';

/**
 * Wait until `params.until` (epoch ms). Idempotent: re-run after a crash, it waits only what is left,
 * because the moment itself was journaled, not the duration.
 */
export const waitUntil: EffectHandler<'wait.until'> = {
  policy: 'retry',
  async execute(params, ctx) {
    const started = Date.now();
    const left = Math.max(0, params.until - started);
    if (left > 0) {
      try {
        await sleep(left, undefined, { signal: ctx.signal });
      } catch (error) {
        if (ctx.signal.aborted) throw new EffectAborted('wait.until');
        throw error;
      }
    }
    return { waitedMs: Math.max(0, Date.now() - started) };
  },
};
