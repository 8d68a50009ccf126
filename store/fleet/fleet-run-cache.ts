// `yoke fleet`'s cache of each workspace's run rows, keyed on the journal's stored head: an unchanged workspace costs one query instead of a full read and fold.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { sameHead } from '../journal/journal-head.js';
import type { StoredHead } from '../journal/journal-store.js';

interface CachedRows<T> {
  v: 1;
  journal: { seq: number; hash: string; stamp: string | null };
  rows: T[];
}

/**
 * The rows cached at `path` if they were computed from the journal whose stored head is `head`:
 * the same seq, chain hash and store stamp (PostgreSQL's revision changes with any change to the
 * workspace's rows, an edit inside the journal included). Anything else is a miss (null). Like the
 * status view, a cheap check: `yoke run` and `yoke replay --verify` read every record.
 */
export function readCachedRows<T>(path: string, head: StoredHead): T[] | null {
  let cached: CachedRows<T>;
  try {
    cached = JSON.parse(readFileSync(path, 'utf8')) as CachedRows<T>;
  } catch {
    return null;
  }
  if (cached?.v !== 1 || !Array.isArray(cached.rows) || typeof cached.journal !== 'object' || cached.journal === null) return null;
  return sameHead(cached.journal, head) && cached.journal.stamp === head.stamp ? cached.rows : null;
}

/** Keep `rows` for the journal at `head` (temp file + rename; a cache that cannot be written is only a miss next time). */
export function writeCachedRows<T>(path: string, head: StoredHead, rows: T[]): void {
  const cached: CachedRows<T> = { v: 1, journal: { seq: head.seq, hash: head.hash, stamp: head.stamp }, rows };
  try {
    mkdirSync(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(cached)}\n`);
    renameSync(temporary, path);
  } catch {
    // a read-only home: no cache
  }
}
