// The status view: the latest run's summary, saved next to the journal with a fingerprint of the
// journal's tail, so `yoke status` can answer without parsing and folding the whole journal.
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunSummary } from './run-summary.js';
import type { UsageTotals } from './usage-ledger.js';

/** Which journal a view was computed from: its file identity, size and last line. */
export interface JournalTail {
  ino: number;
  bytes: number;
  mtimeMs: number;
  seq: number;
  /** byte length of the last line, without its newline */
  lastLineBytes: number;
  /** sha256 hex of the last line (the journal's chain hash) */
  lastHash: string;
}

/** What `yoke status` shows about the latest run, as of `journal`. */
export interface StatusView {
  v: 1;
  summary: RunSummary;
  usage: UsageTotals;
  /** what the run was doing at that point (`worker agent`, `guard tests`, …), null between steps */
  phase: string | null;
  journal: JournalTail;
}

/** Where the view lives in a workspace. */
export function statusViewPath(journalDir: string): string {
  return join(journalDir, 'status.json');
}

/** Replace the view atomically (temp file + rename; no fsync: a lost view only costs a full fold). */
export function writeStatusView(path: string, view: StatusView): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(view)}\n`);
  renameSync(temporary, path);
}

/**
 * The fingerprint of the journal at `journalPath` as it is on disk now, whose last record is `seq`
 * with chain hash `lastHash`. Null when the file does not end with a line of that hash (records
 * staged but not flushed yet, a torn tail, someone else's edit).
 */
export function journalTail(journalPath: string, seq: number, lastHash: string): JournalTail | null {
  const stats = statSync(journalPath, { throwIfNoEntry: false });
  if (!stats || stats.size === 0) return null;
  const line = lastLine(journalPath, stats.size);
  if (line === null || sha256(line) !== lastHash) return null;
  return { ino: stats.ino, bytes: stats.size, mtimeMs: stats.mtimeMs, seq, lastLineBytes: line.length, lastHash };
}

/**
 * The view, if it still describes the journal: same file (inode), same size and modification time,
 * and its last line hashes to the recorded chain hash. Anything else (no view, a garbled one, a
 * journal appended to or edited since) → null, and the caller folds the journal instead.
 *
 * This is a cheap check of the tail, not a verification of the chain: `yoke run` and `yoke replay
 * --verify` read every line. An edit that keeps the journal's size, mtime and last line is not seen
 * here, only there.
 */
export function readTrustedStatusView(viewPath: string, journalPath: string): StatusView | null {
  let view: StatusView;
  try {
    view = JSON.parse(readFileSync(viewPath, 'utf8')) as StatusView;
  } catch {
    return null;
  }
  if (view?.v !== 1 || typeof view.summary !== 'object' || typeof view.journal !== 'object' || view.journal === null) return null;
  const stats = statSync(journalPath, { throwIfNoEntry: false });
  if (!stats || stats.ino !== view.journal.ino || stats.size !== view.journal.bytes || stats.mtimeMs !== view.journal.mtimeMs) return null;
  return tailMatches(journalPath, view.journal) ? view : null;
}

/** Does the file end with a newline-terminated line of `lastLineBytes` bytes hashing to `lastHash`? */
function tailMatches(journalPath: string, tail: JournalTail): boolean {
  const length = tail.lastLineBytes + 1;
  const start = tail.bytes - length;
  if (!Number.isInteger(start) || start < 0) return false;
  // the byte before the line must be a newline too (or the line is the first)
  const withBefore = start > 0 ? length + 1 : length;
  const buffer = Buffer.alloc(withBefore);
  const fd = openSync(journalPath, 'r');
  try {
    if (readSync(fd, buffer, 0, withBefore, tail.bytes - withBefore) !== withBefore) return false;
  } finally {
    closeSync(fd);
  }
  if (buffer[buffer.length - 1] !== 0x0a || (start > 0 && buffer[0] !== 0x0a)) return false;
  const line = buffer.subarray(start > 0 ? 1 : 0, buffer.length - 1);
  return sha256(line) === tail.lastHash;
}

/** The last newline-terminated line of a file of `size` bytes (without the newline); null if it does not end with one. */
function lastLine(path: string, size: number): Buffer | null {
  const fd = openSync(path, 'r');
  try {
    let chunk = 4096;
    for (;;) {
      const length = Math.min(size, chunk);
      const buffer = Buffer.alloc(length);
      if (readSync(fd, buffer, 0, length, size - length) !== length) return null;
      if (buffer[length - 1] !== 0x0a) return null;
      const before = buffer.lastIndexOf(0x0a, length - 2);
      if (before >= 0) return buffer.subarray(before + 1, length - 1);
      if (length === size) return buffer.subarray(0, length - 1);
      chunk *= 4;
    }
  } finally {
    closeSync(fd);
  }
}

// The same digest as the journal's chain (`hashLine` in store/journal/record-chain.ts), repeated here so
// that `yoke status` does not load the journal reader and its zod schemas.
function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}
