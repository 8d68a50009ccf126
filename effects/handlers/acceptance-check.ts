// `acceptance.check`: goal acceptance through the same engine as `yoke check` (DESIGN §12).
import { resolve } from 'node:path';
import { runAcceptanceCheck } from '../acceptance/run-acceptance-check.js';
import { yokeVersion } from '../fs/yoke-version.js';
import type { EffectHandler } from '../handler.js';
import { childEnvironment } from '../process/child-environment.js';

/**
 * Run the journaled criteria, bindings and journeys and write `.loop/proof/<label>/report.json`.
 * Criterion commands inherit the environment the way guards do (with `YOKE_RUN` and
 * `YOKE_LOOP_DIR`, without the store's credentials); progress lines go to the live stderr. Safe to repeat (`retry`): a check cut
 * short leaves the label's earlier evidence in place, and a repeated one replaces it whole.
 */
export const checkAcceptance: EffectHandler<'acceptance.check'> = {
  policy: 'retry',
  execute(params, ctx) {
    return runAcceptanceCheck(params, {
      root: ctx.root,
      loopDir: ctx.loopDir,
      env: { ...childEnvironment(), YOKE_RUN: ctx.run, YOKE_LOOP_DIR: resolve(ctx.loopDir) },
      ...(ctx.secrets === undefined ? {} : { secrets: ctx.secrets }),
      output: ctx.output,
      signal: ctx.signal,
      warn: (message) => ctx.warn(message),
      progress: (line) => ctx.output.stderr(`yoke: acceptance: ${line}\n`),
      yokeVersion: yokeVersion(),
    });
  },
};
