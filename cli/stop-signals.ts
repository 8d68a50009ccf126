// The signals that stop a command cleanly: Ctrl-C, a kill, and a terminal hangup (issue 20, item 2).
import { STOP_SIGNALS } from './exit-codes.js';

/**
 * Call `onSignal` on SIGINT, SIGTERM and SIGHUP; returns the function that stops listening.
 * Writes to a terminal that hung up fail with EIO; cli/main.ts ignores those, so the stop that
 * follows the hangup (stop the agent's group, journal the interruption) is never cut short.
 */
export function listenForStopSignals(onSignal: (signal: NodeJS.Signals) => void): () => void {
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  return () => {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
  };
}
