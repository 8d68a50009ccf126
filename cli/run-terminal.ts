// What `yoke run` shows: a live status line on a terminal, timestamped lines otherwise, NDJSON with --json.
import type { OutputSink } from '../effects/handler.js';
import { StatusLine } from './status-line.js';
import { processOutput, type OutputMode } from './terminal.js';

/** The run's view of the terminal. */
export interface RunTerminal {
  /** where agent and guard output goes */
  output: OutputSink;
  /** a progress line (skipped with --quiet or --json) */
  progress: (line: string) => void;
  /** a warning (always shown) */
  warn: (message: string) => void;
  /** a line printed as is (always shown) */
  notice: (line: string) => void;
  /** start the live status line (on a terminal, without --quiet/--json); `render` is called at every redraw */
  showStatus: (render: () => string) => void;
  /** redraw the status line now */
  refresh: () => void;
  /** erase the status line; later lines are plain */
  stop: () => void;
  /** may status text use color? */
  color: boolean;
}

/** Build the run's terminal for these flags (stderr decides: that is where the status line lives). */
export function runTerminal(mode: OutputMode, env: NodeJS.ProcessEnv = process.env): RunTerminal {
  const tty = process.stderr.isTTY === true;
  const color = tty && !('NO_COLOR' in env);
  const base = processOutput(mode);
  let line: StatusLine | null = null;
  const write = (text: string) => (line ? line.print(text) : void process.stderr.write(text));
  return {
    color,
    output: {
      stdout: (chunk) => (line ? line.sink().stdout(chunk) : base.stdout(chunk)),
      stderr: (chunk) => (line ? line.sink().stderr(chunk) : base.stderr(chunk)),
    },
    progress(text) {
      if (mode.quiet || mode.json) return;
      write(progressLine(text, new Date(), color));
    },
    warn(message) {
      write(`yoke: warning: ${message}\n`);
    },
    notice(text) {
      write(`${text}\n`);
    },
    showStatus(render) {
      if (!tty || mode.quiet || mode.json || line) return;
      line = new StatusLine(render, { terminal: process.stderr, stdout: process.stdout, stdoutIsTerminal: process.stdout.isTTY === true });
      process.once('exit', () => line?.stop());
    },
    refresh() {
      line?.refresh();
    },
    stop() {
      line?.stop();
      line = null;
    },
  };
}

/** `12:04:05 yoke: <line>` (with color on a terminal that allows it). */
export function progressLine(text: string, at: Date, color: boolean): string {
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
  return color ? `\x1b[2m${time}\x1b[0m \x1b[36myoke\x1b[0m ${text}\n` : `${time} yoke: ${text}\n`;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}
