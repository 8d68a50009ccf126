// Feeding recorded CLI output through an adapter's parser, whole or cut into chunks.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentOutcome, OutputParser, ProcessEnd } from '../../../../effects/adapters/agent-outcome.js';

const SAMPLES = join(import.meta.dirname, '..', 'samples');

/** A recorded sample (tests/effects/adapters/samples/, copied from real CLI runs). */
export function sample(name: string): Buffer {
  return readFileSync(join(SAMPLES, name));
}

/** A process that exited with `code`. */
export function exited(code: number): ProcessEnd {
  return { outcome: 'exited', exitCode: code, signal: null, error: null };
}

/** What the parser decides for this output, fed in chunks cut at `cuts` (byte offsets) or whole. */
export function feed(parser: OutputParser, output: { stdout?: Buffer | string; stderr?: Buffer | string }, end: ProcessEnd = exited(0), cuts: number[] = []): AgentOutcome {
  const stdout = Buffer.from(output.stdout ?? '');
  const stderr = Buffer.from(output.stderr ?? '');
  let start = 0;
  for (const cut of [...cuts, stdout.length]) {
    parser.stdout(stdout.subarray(start, cut));
    start = cut;
  }
  if (stderr.length > 0) parser.stderr(stderr);
  return parser.finish(end);
}

/** Feeds `stdout` one byte at a time. */
export function feedBytewise(parser: OutputParser, stdout: Buffer, end: ProcessEnd = exited(0)): AgentOutcome {
  for (let i = 0; i < stdout.length; i += 1) parser.stdout(stdout.subarray(i, i + 1));
  return parser.finish(end);
}
