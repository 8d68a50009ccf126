// One live status line at the bottom of a terminal, with everything else scrolling above it.
import type { OutputSink } from '../effects/handler.js';

/** Where the status line draws and where output goes (the process's streams by default). */
export interface StatusLineStreams {
  /** the terminal the line is drawn on (stderr) */
  terminal: NodeJS.WritableStream & { columns?: number };
  stdout: NodeJS.WritableStream;
  /** is stdout the same terminal (so its writes move the cursor there too)? */
  stdoutIsTerminal: boolean;
}

/** How long output may leave the cursor mid-line before the line is ended on screen and the status redrawn. */
const MID_LINE_GRACE_MS = 1000;
const CLEAR = '\r\x1b[2K';
const REFRESH_MS = 100;

/**
 * Draws `render()` as the terminal's last line and keeps it there: before anything else is written
 * (agent output, progress lines, warnings) the line is erased; afterwards it is drawn again. So
 * output never mixes with it. It is redrawn every second (elapsed time, silence).
 *
 * Output that ends mid-line leaves the cursor there; the status line waits until the line ends.
 * If it does not end within a second, a newline is added on screen only (never in transcripts),
 * so a silent agent that printed a partial line still has a live status line under it.
 */
export class StatusLine {
  private drawn = false;
  private drawnAt = 0;
  private midLine = false;
  private stopped = false;
  private readonly ticker: NodeJS.Timeout;
  private midLineTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly render: () => string,
    private readonly streams: StatusLineStreams,
  ) {
    this.ticker = setInterval(() => this.draw(), 1000);
    this.ticker.unref();
    this.draw();
  }

  /** The output sink for agents and guards: writes around the status line. */
  sink(): OutputSink {
    return {
      stdout: (chunk) => this.write(this.streams.stdout, chunk, this.streams.stdoutIsTerminal),
      stderr: (chunk) => this.write(this.streams.terminal, chunk, true),
    };
  }

  /** Print whole lines above the status line (progress, warnings). */
  print(text: string): void {
    if (this.stopped) {
      this.streams.terminal.write(text);
      return;
    }
    this.endMidLine();
    this.clear();
    this.streams.terminal.write(text);
    this.draw();
  }

  /** Redraw soon after the facts behind it changed (at most ten times a second; the ticker catches up). */
  refresh(): void {
    if (Date.now() - this.drawnAt >= REFRESH_MS) this.draw();
  }

  /** Erase the line and stop redrawing; later writes go straight through. */
  stop(): void {
    if (this.stopped) return;
    clearInterval(this.ticker);
    if (this.midLineTimer) clearTimeout(this.midLineTimer);
    this.endMidLine();
    this.clear();
    this.stopped = true;
  }

  private write(stream: NodeJS.WritableStream, chunk: Buffer | string, onTerminal: boolean): void {
    if (this.stopped || !onTerminal) {
      stream.write(chunk);
      return;
    }
    if (chunk.length === 0) return;
    this.clear();
    stream.write(chunk);
    const last = typeof chunk === 'string' ? chunk.charCodeAt(chunk.length - 1) : chunk[chunk.length - 1];
    this.midLine = last !== 0x0a;
    if (!this.midLine) {
      this.draw();
      return;
    }
    if (this.midLineTimer) clearTimeout(this.midLineTimer);
    this.midLineTimer = setTimeout(() => {
      this.midLineTimer = null;
      this.endMidLine();
      this.draw();
    }, MID_LINE_GRACE_MS);
    this.midLineTimer.unref();
  }

  private endMidLine(): void {
    if (!this.midLine) return;
    this.streams.terminal.write('\n');
    this.midLine = false;
  }

  private clear(): void {
    if (!this.drawn) return;
    this.streams.terminal.write(CLEAR);
    this.drawn = false;
  }

  private draw(): void {
    if (this.stopped || this.midLine) return;
    // a terminal that reports no size (0 columns, e.g. under `script` without a tty) counts as 80 wide
    const width = Math.max(10, (this.streams.terminal.columns || 80) - 1);
    const text = this.render();
    this.streams.terminal.write(`${CLEAR}${fit(text, width)}`);
    this.drawn = true;
    this.drawnAt = Date.now();
  }
}

/** Cut `text` to `width` visible characters (ending with `…`), keeping ANSI color codes intact. */
function fit(text: string, width: number): string {
  // eslint-disable-next-line no-control-regex
  if (text.replace(/\x1b\[[0-9;]*m/g, '').length <= width) return text;
  let visible = 0;
  let out = '';
  for (let index = 0; index < text.length; index += 1) {
    if (text[index] === '\x1b') {
      const end = text.indexOf('m', index);
      if (end < 0) break;
      out += text.slice(index, end + 1);
      index = end;
      continue;
    }
    if (visible === width - 1) break;
    out += text[index];
    visible += 1;
  }
  return `${out}…${text.includes('\x1b') ? '\x1b[0m' : ''}`;
}
