// The only place errors become exit codes (DESIGN §5).
import { YokeError } from '../errors/yoke-error.js';

export const EXIT = {
  ok: 0,
  unsuccessful: 1,
  usage: 2,
  workspace: 3,
  sigint: 130,
  sigterm: 143,
} as const;

/** The exit status for an error that reached the CLI boundary. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof YokeError) {
    switch (error.code) {
      case 'usage':
        return EXIT.usage;
      case 'workspace':
        return EXIT.workspace;
      case 'effect':
      case 'blocked':
        return EXIT.unsuccessful;
    }
  }
  if (isCommanderError(error)) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  return EXIT.unsuccessful;
}

/** The exit status for a run stopped by a signal. */
export function exitCodeForSignal(signal: string): number {
  return signal === 'SIGTERM' ? EXIT.sigterm : EXIT.sigint;
}

function isCommanderError(error: unknown): error is { exitCode: number; code: string } {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    && error.code.startsWith('commander.');
}
