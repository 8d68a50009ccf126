// The stash index: a fold of the journal's stash records (DESIGN §6). It only ever grows.
import type { JournalRecord, Payload } from '../journal/record.js';
import { stashId, treeHash } from './stash-entry.js';
import { YokeError } from '../../errors/yoke-error.js';

type PushedPayload = Payload<'stash.pushed'>;

/** One stash entry and what happened to it since. */
export interface IndexEntry extends PushedPayload {
  /** seq of its `stash.pushed` record */
  seq: number;
  /** when it was stashed (ISO) */
  time: string;
  /** the journal head before its operation began: part of its id */
  parent: string;
  /** its files have left `.loop/` (false only while its operation is unfinished) */
  cleared: boolean;
  /** every time it was brought back */
  restores: { via: 'pop' | 'checkout'; seq: number; time: string }[];
  /** `yoke stash pop` brought it back: pop skips it from then on */
  popped: boolean;
}

/** A stash command that began but has not ended: the next stash command finishes or undoes it. */
export interface OpenOperation {
  begun: Payload<'stash.begun'>;
  seq: number;
  time: string;
  /** the journal head before it began */
  parent: string;
  pushed: IndexEntry | null;
  cleared: boolean;
  restored: boolean;
}

/** How messages name journal record `seq` (the store's `recordLocation`). */
export type RecordLocator = (seq: number) => string;

export interface StashIndex {
  /** oldest first, exactly as journaled */
  entries: IndexEntry[];
  open: OpenOperation | null;
}

/**
 * Fold the stash records of a journal. A record that contradicts the fold (a second operation
 * inside an open one, a push nobody announced, …) refuses the workspace naming the record
 * (`locate`): the journal was edited or written by an incompatible yoke.
 */
export function foldStashIndex(records: readonly JournalRecord[], locate: RecordLocator): StashIndex {
  const index: StashIndex = { entries: [], open: null };
  const byId = new Map<string, IndexEntry>();
  for (const record of records) {
    const bad = (why: string): YokeError => new YokeError(
      'workspace',
      `${locate(record.seq)}: ${record.type} ${why}; the journal was edited or written by an incompatible yoke, so the stash index cannot be trusted.`,
    );
    const open = index.open;
    switch (record.type) {
      case 'stash.begun':
        if (open) throw bad(`starts an operation while the one begun at record ${open.seq} is unfinished`);
        index.open = { begun: record.payload, seq: record.seq, time: record.ts, parent: record.prev, pushed: null, cleared: false, restored: false };
        break;
      case 'stash.pushed': {
        if (!open || open.begun.push !== record.payload.id || open.pushed) throw bad('was not announced by the operation that wrote it');
        if (byId.has(record.payload.id)) throw bad(`repeats the id ${record.payload.id}`);
        const entry: IndexEntry = { ...record.payload, seq: record.seq, time: open.time, parent: open.parent, cleared: false, restores: [], popped: false };
        index.entries.push(entry);
        byId.set(entry.id, entry);
        open.pushed = entry;
        break;
      }
      case 'stash.cleared':
        if (!open?.pushed || open.pushed.id !== record.payload.id || open.cleared) throw bad('does not follow the push of its operation');
        open.pushed.cleared = true;
        open.cleared = true;
        break;
      case 'stash.restored': {
        const entry = byId.get(record.payload.id);
        if (!open || open.begun.restore !== record.payload.id || open.restored || !entry) throw bad('does not belong to the operation that wrote it');
        entry.restores.push({ via: record.payload.via, seq: record.seq, time: record.ts });
        if (record.payload.via === 'pop') entry.popped = true;
        open.restored = true;
        break;
      }
      case 'stash.ended':
        if (!open || open.begun.op !== record.payload.op) throw bad('ends an operation that was not begun');
        index.open = null;
        break;
      default:
        break;
    }
  }
  return index;
}

/** The entry `yoke stash pop` brings back: the newest one not popped yet, or null. */
export function entryToPop(index: StashIndex): IndexEntry | null {
  for (let i = index.entries.length - 1; i >= 0; i -= 1) {
    const entry = index.entries[i];
    if (entry && !entry.popped) return entry;
  }
  return null;
}

/**
 * The one entry whose id starts with `prefix` (hex, any case). None, several, or a prefix that
 * is not hex is a usage error that names the candidates; nothing is changed.
 */
export function resolveStashPrefix(index: StashIndex, prefix: string): IndexEntry {
  const wanted = prefix.toLowerCase();
  if (!/^[0-9a-f]{1,64}$/.test(wanted)) {
    throw new YokeError('usage', `\`${prefix}\` is not a stash id: ids are hex digits (see \`yoke stash list\`). Nothing was changed.`);
  }
  const matches = index.entries.filter((entry) => entry.id.startsWith(wanted));
  if (matches.length === 1 && matches[0]) return matches[0];
  if (matches.length === 0) {
    throw new YokeError('usage', `no stash entry id starts with ${wanted}${index.entries.length === 0 ? ' (the stash is empty)' : ''}; see \`yoke stash list\`. Nothing was changed.`);
  }
  const shown = matches.map((entry) => `${entry.id.slice(0, Math.max(12, wanted.length + 1))} (${entry.mode}, ${entry.time})`).join(', ');
  throw new YokeError('usage', `${wanted} is ambiguous: it starts ${matches.length} stash entries: ${shown}; give more digits. Nothing was changed.`);
}

/** Does the entry's id still match its content, tag, message, time and parent (was it forged)? */
export function entryIdHolds(entry: IndexEntry): boolean {
  const tree = treeHash(entry.entries);
  return tree === entry.tree && stashId({ tree, mode: entry.mode, message: entry.message, time: entry.time, parent: entry.parent }) === entry.id;
}

