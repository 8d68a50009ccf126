#!/usr/bin/env node
// yoke's entry point: run one command, map any error to its exit code in exactly one place.
import { environmentFault } from '../errors/environment-fault.js';
import { exitCodeFor } from './exit-codes.js';
import { fastPath } from './fast-path.js';
import { reportError } from './report-error.js';

async function main(argv: string[]): Promise<number> {
  // `--version` and `status` skip commander (and everything else) to start fast.
  const fast = fastPath(argv.slice(2));
  let code = 0;
  try {
    if (fast) return await fast();
    const [{ buildProgram }, { showsLifecycles }] = await Promise.all([import('./program.js'), import('./lifecycle-help.js')]);
    // The registry loads every machine: only commands that list the lifecycles pay for it.
    const lifecycles = showsLifecycles(argv.slice(2)) ? (await import('../machines/lifecycles/registry.js')).LIFECYCLE_REGISTRY : [];
    const program = buildProgram(argv, (result) => {
      code = result;
    }, lifecycles);
    await program.parseAsync(argv);
  } catch (caught) {
    // A full disk or a read-only mount is the environment's fault, whichever file it hit: exit 3, what to do.
    const error = environmentFault(caught) ?? caught;
    const status = exitCodeFor(error);
    if (!isCommanderMessage(error)) reportError(error);
    return status;
  }
  return code;
}

/** commander already printed its own message (usage errors, --help, --version). */
function isCommanderMessage(error: unknown): boolean {
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
    && (error as { code: string }).code.startsWith('commander.');
}

// `yoke runs | head`: a closed pipe is the reader's choice, not an error worth a stack trace.
// A terminal that hung up fails writes with EIO: the SIGHUP that came with it stops the run cleanly
// (cli/stop-signals.ts), so nothing may crash yoke before the agent is stopped and that is journaled.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    if (error.code === 'EIO') return;
    throw error;
  });
}

/**
 * Resolves once everything written to the stream so far reached the OS. A pipe takes 64 KiB at a
 * time; the rest waits in Node, and `process.exit` would drop it (`yoke inspect stories --format
 * json | jq` got a cut-off document).
 */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.writableLength === 0 || stream.destroyed || stream.writableEnded) resolve();
    else stream.write('', () => resolve());
  });
}

const code = await main(process.argv);
process.exitCode = code;
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
// Hooks are settled by `run`; nothing else may keep yoke alive after its command finished.
setImmediate(() => process.exit(code));
