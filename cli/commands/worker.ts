// `yoke worker`: claim the fleet's jobs and run them until stopped (DESIGN §14).
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { FleetWorker } from '../../store/fleet/fleet-worker.js';
import { sharedStoreUrl } from '../../store/session/shared-store-url.js';
import { EXIT } from '../exit-codes.js';
import { listenForStopSignals } from '../stop-signals.js';

/** `worker`'s flags. */
export interface WorkerFlags {
  concurrency: number;
  workdir?: string;
}

/** Run the worker until SIGTERM/SIGINT (each run is stopped resumably and its job handed back). */
export async function workerCommand(flags: WorkerFlags): Promise<number> {
  const url = sharedStoreUrl('yoke worker');
  const workdir = resolve(flags.workdir ?? join(homedir(), '.cache', 'yoke', 'worker'));
  const script = process.argv[1];
  const worker = new FleetWorker({
    url,
    concurrency: flags.concurrency,
    workdir,
    yoke: script === undefined ? [process.execPath] : [process.execPath, script],
    log: (line) => process.stderr.write(`yoke worker: ${line}\n`),
  });
  let stoppedBy: NodeJS.Signals | null = null;
  const stopListening = listenForStopSignals((signal) => {
    stoppedBy = signal;
    worker.stop('SIGTERM');
  });
  try {
    await worker.start();
  } finally {
    stopListening();
  }
  return stoppedBy === null ? EXIT.workspace : EXIT.ok;
}
