// `clock.read`: the wall clock as a journaled fact (machines never read the clock themselves).
import type { EffectHandler } from '../handler.js';

/** Milliseconds since the epoch, now. Re-reading after a crash is correct: it is "now" that is wanted. */
export const readClock: EffectHandler<'clock.read'> = {
  policy: 'retry',
  execute() {
    return Promise.resolve({ now: Date.now() });
  },
};
