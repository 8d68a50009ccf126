// V8 heap settings for commands that stream a whole journal through a fold (`yoke replay`).
import { setFlagsFromString } from 'node:v8';

/**
 * Keep the heap near the fold's small, flat live set while a journal of any length streams
 * through it (docs/performance.md, "replay --verify and RSS (2026-12-02)"). Two V8 flags, both
 * only about where and when V8 collects garbage, never about what a program computes:
 *
 * - `--no-allocation-site-pretenuring`: folding copies the machine's context at every XState
 *   `assign`, a few times per record. V8 saw some of those allocation sites survive a scavenge and
 *   began allocating them straight into the old generation, where each dead copy also kept the
 *   young objects it pointed at alive until they were promoted too: on a 100k-record
 *   `replay --verify`, 54 MB promoted against 17 MB without pretenuring, and less CPU.
 * - `--heap-growing-percent=20`: after a full collection V8 let the old generation grow to about
 *   five times what survived it (~21 MB live, full collections at ~105 MB) and, depending on its
 *   timing, sometimes to ~150 MB; with 1.2× it collects more often, each time a small live set
 *   (a few ms each), and the peak stays flat.
 *
 * V8 reads both when it decides (at allocation-site feedback and after each full collection), so
 * setting them after start-up takes effect (measured with Node 20; Node documents setting flags at
 * run time as use-with-care). Only for streamed folds: a command that holds the whole journal
 * grows its live set, and would collect too often with a 1.2× limit.
 */
export function heapForStreamedFold(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
  setFlagsFromString('--heap-growing-percent=20');
}
