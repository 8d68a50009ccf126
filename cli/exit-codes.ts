// The only place errors become exit codes (DESIGN §5).
import { YokeError } from '../errors/yoke-error.js';

export const EXIT = {
  ok: 0,
  unsuccessful: 1,
  usage: 2,
  workspace: 3,
  sighup: 129,
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

/** The signals a run stops on cleanly (group stopped, interruption journaled); a terminal hangup is one of them. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** The exit status for a run stopped by a signal: 128 + the signal's number. */
export function exitCodeForSignal(signal: string): number {
  switch (signal) {
    case 'SIGTERM':
      return EXIT.sigterm;
    case 'SIGHUP':
      return EXIT.sighup;
    default:
      return EXIT.sigint;
  }
}

function isCommanderError(error: unknown): error is { exitCode: number; code: string } {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    && error.code.startsWith('commander.');
}
