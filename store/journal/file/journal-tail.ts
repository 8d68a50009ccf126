// The end of a journal file, read cheaply: the head (last complete line's seq and hash) and a torn tail.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { EMPTY_HEAD, type JournalHead } from '../journal-head.js';

/** What the end of a journal file says, without reading the lines before it. */
export interface FileTail {
  head: JournalHead;
  /** bytes after the last newline (a crash mid-write), with where they start */
  torn: { offset: number; bytes: number } | null;
  /** the file's size (0 when it does not exist) */
  size: number;
  /** inode, size and mtime: changes with any write to the file (null when it does not exist) */
  stamp: string | null;
}

/**
 * Read the tail of the journal at `path`: a missing or empty file is the empty head. The head's seq
 * is read from the last complete line as plain JSON (no schema, so `yoke status` stays light); it
 * is 0 when that line holds no seq, which no real head has (reading the journal then refuses it).
 */
export function readFileTail(path: string): FileTail {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { head: EMPTY_HEAD, torn: null, size: 0, stamp: null };
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    return { ...tailOf(fd, stats.size), stamp: `${stats.ino}:${stats.size}:${stats.mtimeMs}` };
  } finally {
    closeSync(fd);
  }
}

/** The tail of the open file `fd` of `size` bytes. */
export function tailOf(fd: number, size: number): Omit<FileTail, 'stamp'> {
  if (size === 0) return { head: EMPTY_HEAD, torn: null, size };
  // Read backwards in growing chunks until the last complete line (and what follows it) is in hand.
  for (let chunk = 4096; ; chunk *= 4) {
    const length = Math.min(size, chunk);
    const buffer = Buffer.allocUnsafe(length);
    if (readSync(fd, buffer, 0, length, size - length) !== length) throw new Error('the journal shrank while its tail was read');
    const start = size - length;
    const lastNewline = buffer.lastIndexOf(0x0a);
    if (lastNewline === -1 && start > 0) continue;
    const completeEnd = lastNewline === -1 ? start : start + lastNewline + 1; // bytes of complete lines
    const torn = completeEnd < size ? { offset: completeEnd, bytes: size - completeEnd } : null;
    if (completeEnd === 0) return { head: EMPTY_HEAD, torn, size };
    const before = lastNewline <= 0 ? -1 : buffer.lastIndexOf(0x0a, lastNewline - 1);
    if (before === -1 && start > 0) continue;
    const line = buffer.subarray(before + 1, lastNewline);
    // the chain's digest (`recordHash` in record-chain.ts), computed here to keep zod out of `yoke status`
    return { head: { seq: seqOf(line), hash: createHash('sha256').update(line).digest('hex') }, torn, size };
  }
}

function seqOf(line: Buffer): number {
  try {
    const seq = (JSON.parse(line.toString('utf8')) as { seq?: unknown }).seq;
    return typeof seq === 'number' && Number.isSafeInteger(seq) && seq > 0 ? seq : 0;
  } catch {
    return 0; // not JSON: reading the journal names the line
  }
}
