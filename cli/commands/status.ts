// `yoke status`: where the latest run stands and whether it is alive (never changes the journal).
import { findProjectQuick } from '../find-project-quick.js';
import { loadStatusReport } from '../status-report.js';
import { statusJson, statusText } from '../status-text.js';
import { listenForStopSignals } from '../stop-signals.js';
import { workspaceTarget } from '../workspace-target.js';

/** Flags of `yoke status`. */
export interface StatusFlags {
  json: boolean;
  watch?: boolean;
  /** a workspace of the shared store (`--workspace`) */
  workspace?: string;
}

/** Print the latest run's summary and liveness; with --watch, every second until Ctrl-C. */
export async function statusCommand(flags: StatusFlags): Promise<number> {
  const paths = await workspaceTarget(flags.workspace, () => findProjectQuick(process.cwd()));
  const render = async (): Promise<string> => {
    const report = await loadStatusReport(paths);
    return flags.json ? JSON.stringify(statusJson(report)) : statusText(report);
  };
  if (!flags.watch) {
    process.stdout.write(`${await render()}\n`);
    return 0;
  }
  return watch(render, flags.json);
}

/**
 * Redraw every second: in place on a terminal (the previous block is erased), as plain repeated
 * blocks (or one JSON line per refresh) otherwise. Ctrl-C ends it with exit 0.
 */
async function watch(render: () => Promise<string>, json: boolean): Promise<number> {
  const tty = process.stdout.isTTY === true && !json;
  let stopped = false;
  let wake: (() => void) | null = null;
  const stop = () => {
    stopped = true;
    wake?.();
  };
  const stopListening = listenForStopSignals(stop);
  let shown = 0;
  try {
    while (!stopped) {
      const text = await render();
      if (tty) {
        const width = Math.max(20, process.stdout.columns ?? 80);
        const lines = text.split('\n').map((line) => (line.length >= width ? `${line.slice(0, width - 2)}…` : line));
        const erase = shown > 0 ? `\x1b[${shown}A\x1b[0J` : '';
        process.stdout.write(`${erase}${lines.join('\n')}\n`);
        shown = lines.length;
      } else {
        process.stdout.write(json ? `${text}\n` : `${new Date().toISOString()}\n${text}\n\n`);
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 1000);
      });
      wake = null;
    }
  } finally {
    stopListening();
  }
  return 0;
}
