// The one error class yoke throws for expected failures; cli/ maps `code` to an exit code.

/** Stable failure categories (cli/exit-codes.ts maps each to an exit status). */
export type YokeErrorCode =
  /** bad flag, bad argument, bad config: nothing was changed (exit 2) */
  | 'usage'
  /** the workspace cannot be used: corrupt journal, lock held, not a git repo (exit 3) */
  | 'workspace'
  /** an effect failed for a reason outside the run's rules (git broke, disk full) (exit 1) */
  | 'effect'
  /** the command refuses until the user settles something first (protected files changed: `yoke protect refresh`) (exit 1) */
  | 'blocked';

/** An expected failure with a one-sentence message: what is wrong, where, what to do. */
export class YokeError extends Error {
  constructor(
    readonly code: YokeErrorCode,
    message: string,
    /** extra lines (e.g. every config issue) printed after the message */
    readonly details: string[] = [],
    /** the original failure (its stack is shown with YOKE_DEBUG=1) */
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
    this.name = 'YokeError';
  }
}
