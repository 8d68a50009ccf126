// Where a command's output goes: live agent output, progress lines, NDJSON for --json.
import type { OutputSink } from '../effects/handler.js';

/** How verbose a command is. */
export interface OutputMode {
  quiet: boolean;
  json: boolean;
}

/** Agent/guard output: live on the terminal; on stderr with --json (stdout carries NDJSON); nowhere with --quiet. */
export function processOutput(mode: OutputMode): OutputSink {
  if (mode.quiet) return { stdout: () => undefined, stderr: () => undefined };
  if (mode.json) return { stdout: (chunk) => process.stderr.write(chunk), stderr: (chunk) => process.stderr.write(chunk) };
  return { stdout: (chunk) => process.stdout.write(chunk), stderr: (chunk) => process.stderr.write(chunk) };
}

/** A warning on stderr (always shown). */
export function warn(message: string): void {
  process.stderr.write(`yoke: warning: ${message}\n`);
}
