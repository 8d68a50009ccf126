// The signals that stop a command cleanly: Ctrl-C, a kill, and a terminal hangup (issue 20, item 2).
import { STOP_SIGNALS } from './exit-codes.js';

/**
 * Call `onSignal` on SIGINT, SIGTERM and SIGHUP; returns the function that stops listening.
 *
 * A hangup means the terminal is gone: from then on a write to stdout or stderr may fail with EIO
 * or EPIPE, and an unhandled stream error would kill yoke before it stopped the agent's group and
 * journaled the interruption. So after SIGHUP, stream errors are swallowed (the journal, not the
 * terminal, is the record of the run).
 */
export function listenForStopSignals(onSignal: (signal: NodeJS.Signals) => void): () => void {
  const listener = (signal: NodeJS.Signals): void => {
    if (signal === 'SIGHUP') ignoreTerminalErrors();
    onSignal(signal);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, listener);
  return () => {
    for (const signal of STOP_SIGNALS) process.off(signal, listener);
  };
}

let ignoring = false;

function ignoreTerminalErrors(): void {
  if (ignoring) return;
  ignoring = true;
  const ignore = (): void => undefined;
  process.stdout.on('error', ignore);
  process.stderr.on('error', ignore);
}
