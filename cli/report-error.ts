// Prints an error as one clear sentence on stderr (a stack trace only with YOKE_DEBUG=1).
import { YokeError } from '../errors/yoke-error.js';

/** Write `error` to stderr the way users should see it. */
export function reportError(error: unknown): void {
  const debug = process.env.YOKE_DEBUG === '1';
  if (error instanceof YokeError) {
    process.stderr.write(`yoke: ${error.message}\n`);
    for (const line of error.details) process.stderr.write(`${line}\n`);
    if (debug) writeStacks(error);
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`yoke: unexpected error: ${message} (rerun with YOKE_DEBUG=1 for details and report it)\n`);
  if (debug && error instanceof Error) writeStacks(error);
}

/** The error's stack, then each cause's, so YOKE_DEBUG=1 shows where the original failure came from. */
function writeStacks(error: Error): void {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 8; depth += 1) {
    process.stderr.write(`${depth === 0 ? '' : 'caused by: '}${current.stack ?? current.message}\n`);
    current = current.cause;
  }
}
