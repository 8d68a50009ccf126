// Keeping only the end of a process's combined output, for excerpts.

/** Enough bytes to hold `maxChars` characters even when each takes four UTF-8 bytes. */
const BYTES_PER_CHAR = 4;

/** A bounded buffer of the last bytes written; `excerpt()` gives the last `maxChars` characters, `…`-prefixed when cut. */
export class OutputTail {
  private chunks: Buffer[] = [];
  private size = 0;
  private dropped = false;
  private readonly keepBytes: number;

  constructor(private readonly maxChars: number) {
    this.keepBytes = maxChars * BYTES_PER_CHAR + BYTES_PER_CHAR;
  }

  /** Append a chunk, forgetting bytes that can no longer reach the excerpt. */
  push(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.chunks.push(bytes);
    this.size += bytes.length;
    if (this.size > this.keepBytes * 2) {
      const all = Buffer.concat(this.chunks);
      this.chunks = [Buffer.from(all.subarray(all.length - this.keepBytes))];
      this.size = this.keepBytes;
      this.dropped = true;
    }
  }

  /** The last `maxChars` characters of everything pushed, prefixed with `…` when anything was cut. */
  excerpt(): string {
    let bytes = Buffer.concat(this.chunks);
    // The byte-level cut may have landed inside a character: skip UTF-8 continuation bytes.
    let start = 0;
    while (this.dropped && start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start += 1;
    bytes = bytes.subarray(start);
    const chars = Array.from(bytes.toString('utf8'));
    if (!this.dropped && chars.length <= this.maxChars) return chars.join('');
    return `…${chars.slice(-this.maxChars).join('')}`;
  }
}
