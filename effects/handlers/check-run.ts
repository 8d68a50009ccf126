// `check.run`: run one guard, periodic or guard-after command and keep the end of its output.
import { resolve } from 'node:path';
import type { EffectHandler } from '../handler.js';
import { OutputTail } from '../process/output-tail.js';
import { runInProcessGroup } from '../process/process-group.js';
import { combineSecrets, redactSecrets, secretValues } from '../process/redact-secrets.js';
import { childEnvironment } from '../process/child-environment.js';

/** How much of the combined output goes into guard-results.md. */
export const EXCERPT_CHARS = 3_000;

/**
 * Run `sh -c command` in the project root in its own process group (stdin closed, the store's
 * credentials withheld from its environment), killing the
 * group after `timeoutMs` (0 = no limit) or on abort; stdout and stderr are streamed live and their
 * combined last {@link EXCERPT_CHARS} characters kept as the excerpt, redacted of the values of
 * secret-looking environment variables and `redact` ones (the live output is not). Safe to repeat (`retry`):
 * its process group is journaled, and `yoke run` stops one a crashed yoke left running first.
 */
export const runCheck: EffectHandler<'check.run'> = {
  policy: 'retry',
  async execute(params, ctx) {
    const tail = new OutputTail(EXCERPT_CHARS);
    const env = {
      ...childEnvironment(),
      YOKE_RUN: ctx.run,
      YOKE_ITERATION: String(params.iteration),
      YOKE_LOOP_DIR: resolve(ctx.loopDir),
    };
    const run = await runInProcessGroup({
      command: params.command,
      cwd: ctx.root,
      env,
      onStdout(chunk) {
        ctx.output.stdout(chunk);
        tail.push(chunk);
      },
      onStderr(chunk) {
        ctx.output.stderr(chunk);
        tail.push(chunk);
      },
      idleTimeoutMs: 0,
      timeoutMs: params.timeoutMs,
      signal: ctx.signal,
      effect: 'check.run',
      // journaled (pid + start time), so a yoke killed while the check runs stops it before running it again
      onSpawn(pid, startTime) {
        ctx.recordProcess({ pid, startTime });
      },
    });
    if (run.error !== null) tail.push(`yoke could not start the ${params.kind} "${params.name}": ${run.error}\n`);
    return {
      outcome: run.outcome,
      exitCode: run.exitCode,
      signal: run.signal,
      durationMs: run.durationMs,
      excerpt: redactSecrets(tail.excerpt(), combineSecrets(secretValues(env, params.redact), ctx.secrets ?? [])),
    };
  },
};
