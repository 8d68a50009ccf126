// Reads a journal file line by line through one fixed-size buffer, never the whole file at once.
import { closeSync, openSync, readSync } from 'node:fs';

/** One complete line (its newline seen), without the newline. */
export interface JournalLine {
  text: string;
  /** 1-based line number */
  number: number;
}

/**
 * The complete lines of a file, in order, read `chunkBytes` at a time (memory stays at one chunk
 * plus the longest line, whatever the file's size). After iterating, `validBytes` is the length of
 * the prefix that ends with the last newline and `torn` describes bytes after it (a crash mid-write).
 * A missing file has no lines. Reading stops at `limitBytes` when given (a file growing meanwhile),
 * and starts at byte `startBytes` (the start of line `startLine + 1`) when given (a checkpoint's end).
 */
export class JournalLineReader implements Iterable<JournalLine> {
  validBytes = 0;
  torn: { line: number; bytes: number } | null = null;

  constructor(
    readonly path: string,
    private readonly limitBytes = Number.POSITIVE_INFINITY,
    private readonly chunkBytes = 1 << 20,
    private readonly startBytes = 0,
    private readonly startLine = 0,
  ) {}

  *[Symbol.iterator](): Iterator<JournalLine> {
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    try {
      yield* this.lines(fd);
    } finally {
      closeSync(fd);
    }
  }

  private *lines(fd: number): Generator<JournalLine> {
    const buffer = Buffer.allocUnsafe(this.chunkBytes);
    /** bytes of the line being read that came in earlier chunks */
    const pending: Buffer[] = [];
    let pendingBytes = 0;
    let position = this.startBytes;
    let number = this.startLine;
    this.validBytes = this.startBytes;
    this.torn = null;
    while (position < this.limitBytes) {
      const want = Math.min(buffer.length, this.limitBytes - position);
      const read = readSync(fd, buffer, 0, want, position);
      if (read === 0) break;
      const chunk = buffer.subarray(0, read);
      let start = 0;
      for (let newline = chunk.indexOf(0x0a, 0); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
        // A line inside this chunk is decoded in place (no Buffer per line); one begun in an
        // earlier chunk is joined first.
        const text = pendingBytes === 0
          ? chunk.toString('utf8', start, newline)
          : Buffer.concat([...pending, chunk.subarray(start, newline)], pendingBytes + newline - start).toString('utf8');
        pending.length = 0;
        pendingBytes = 0;
        number += 1;
        this.validBytes = position + newline + 1;
        start = newline + 1;
        yield { text, number };
      }
      if (start < read) {
        // The buffer is reused for the next chunk: keep a copy of the unfinished line.
        pending.push(Buffer.from(chunk.subarray(start)));
        pendingBytes += read - start;
      }
      position += read;
    }
    if (pendingBytes > 0) this.torn = { line: number + 1, bytes: pendingBytes };
  }
}
