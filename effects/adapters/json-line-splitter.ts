// Splitting a byte stream into JSON Lines objects, whatever the chunk boundaries.
import { StringDecoder } from 'node:string_decoder';

/** A line longer than this is not kept in memory: it is skipped up to its newline. */
const MAX_LINE_CHARS = 64 * 1024 * 1024;

/**
 * Feed chunks as they arrive; get back every complete line that is a JSON object. Lines that are
 * not JSON, or JSON but not an object (a CLI's banner, warnings, progress text), are ignored.
 * Multi-byte characters split across chunks are decoded correctly.
 */
export class JsonLineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private partial = '';
  private skipping = false;

  /** The objects completed by this chunk. */
  push(chunk: Buffer | string): Record<string, unknown>[] {
    const text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    return this.take(text);
  }

  /** The last line, when the stream ended without a newline. */
  end(): Record<string, unknown>[] {
    const rest = this.take(this.decoder.end());
    const last = this.skipping ? null : parseObject(this.partial);
    this.partial = '';
    return last === null ? rest : [...rest, last];
  }

  private take(text: string): Record<string, unknown>[] {
    const objects: Record<string, unknown>[] = [];
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      const line = this.partial + text.slice(start, newline);
      this.partial = '';
      if (!this.skipping) {
        const object = parseObject(line);
        if (object !== null) objects.push(object);
      }
      this.skipping = false;
      start = newline + 1;
    }
    if (!this.skipping) this.partial += text.slice(start);
    if (this.partial.length > MAX_LINE_CHARS) {
      this.partial = '';
      this.skipping = true;
    }
    return objects;
  }
}

/** The JSON object `text` is (one line or a whole document), or null when it is anything else. */
export function parseObject(line: string): Record<string, unknown> | null {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{')) return null;
  try {
    const value: unknown = JSON.parse(trimmed);
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

/** A plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
