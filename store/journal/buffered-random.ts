// A cryptographic random source for record ids that draws from the OS in 4 KiB batches.
import { randomBytes } from 'node:crypto';

const BATCH = 4096;

/**
 * A PRNG for `ulid`'s `monotonicFactory`: a float in [0, 1) from one crypto-random byte, like
 * ulid's own default source, but refilled 4 KiB at a time instead of a crypto call per character
 * (the default cost about 0.5 ms per journal record).
 */
export function bufferedRandom(): () => number {
  let pool = randomBytes(BATCH);
  let next = 0;
  return () => {
    if (next >= pool.length) {
      pool = randomBytes(BATCH);
      next = 0;
    }
    const byte = pool[next] as number;
    next += 1;
    return byte / 256; // [0, 1): each of ulid's 32 characters equally likely
  };
}
