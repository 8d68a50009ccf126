// Running one criterion command the way guards run (effects/handlers/check-run.ts), keeping the
// end of its output with every known fill value and secret environment value redacted.
import { resolve } from 'node:path';
import type { CommandObservation } from '../../machines/acceptance/build-check-report.js';
import { EXCERPT_CHARS } from '../handlers/check-run.js';
import { OutputTail } from '../process/output-tail.js';
import { runInProcessGroup } from '../process/process-group.js';
import type { CheckContext } from './check-context.js';
import type { Redactor } from './secret-redactor.js';

/** Environment variable set for criterion commands: a `yoke check` inside one refuses to recurse. */
export const CHECK_ENV = 'YOKE_CHECK';

/**
 * `sh -c command` in the project root, in its own process group (stdin closed), killed after
 * `timeoutMs` (0 = no limit) or on abort. Output streams live to `ctx.output`; the tail kept for
 * the report is redacted. `YOKE_CHECK` (the label) and `YOKE_CRITERION` tell the command where it runs.
 */
export async function runCriterionCommand(
  criterion: { name: string; command: string; timeoutMs: number }, label: string, ctx: CheckContext, redactor: Redactor,
): Promise<CommandObservation> {
  // Keep enough before the excerpt that a secret cut by its start is redacted whole, then cut.
  const tail = new OutputTail(EXCERPT_CHARS + redactor.longest);
  const run = await runInProcessGroup({
    command: criterion.command,
    cwd: ctx.root,
    env: { ...ctx.env, YOKE_LOOP_DIR: resolve(ctx.loopDir), [CHECK_ENV]: label, YOKE_CRITERION: criterion.name },
    onStdout(chunk) {
      ctx.output.stdout(chunk);
      tail.push(chunk);
    },
    onStderr(chunk) {
      ctx.output.stderr(chunk);
      tail.push(chunk);
    },
    idleTimeoutMs: 0,
    timeoutMs: criterion.timeoutMs,
    signal: ctx.signal,
    effect: 'check.run',
  });
  if (run.error !== null) tail.push(`yoke could not start the criterion "${criterion.name}": ${run.error}\n`);
  const outcome = run.outcome === 'idle-timeout' ? 'timed-out' : run.outcome;
  return { outcome, exitCode: run.exitCode, durationMs: run.durationMs, outputTail: lastChars(redactor.redact(tail.excerpt()), EXCERPT_CHARS) };
}

/** The last `max` characters, `…`-prefixed when anything was cut (as OutputTail does). */
function lastChars(text: string, max: number): string {
  const chars = Array.from(text.startsWith('…') ? text.slice(1) : text);
  if (chars.length <= max && !text.startsWith('…')) return text;
  return `…${chars.slice(-max).join('')}`;
}
