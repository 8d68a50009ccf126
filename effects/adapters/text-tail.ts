// The last part of a stream's text, decoded across chunk boundaries, for error details.
import { StringDecoder } from 'node:string_decoder';

/** Keeps the last `maxChars` characters written (roughly: whole chunks are trimmed from the front). */
export class TextTail {
  private readonly decoder = new StringDecoder('utf8');
  private text = '';

  constructor(private readonly maxChars: number) {}

  /** Append a chunk. */
  push(chunk: Buffer): void {
    this.text += this.decoder.write(chunk);
    if (this.text.length > this.maxChars * 2) this.text = this.text.slice(-this.maxChars);
  }

  /** Everything kept, at most `maxChars` characters. */
  value(): string {
    return this.text.slice(-this.maxChars);
  }

  /** The last non-blank line, cut to `max` characters, or null. */
  lastLine(max = 200): string | null {
    const lines = this.value().split('\n').map((line) => line.trim()).filter((line) => line !== '');
    const last = lines.at(-1);
    return last === undefined ? null : oneLine(last, max);
  }
}

/** `text` on one line (whitespace runs collapsed), cut to `max` characters with an ellipsis. */
export function oneLine(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
