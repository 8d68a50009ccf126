// The protection baseline as the journal says now: a fold over its `protect.*` records (DESIGN §16).
import { protectionSound, type Protection } from '../../machines/protect/protection.js';
import type { JournalRecord, Payload } from '../journal/record.js';

/** One entry of the baseline's history: where it was taken or refreshed, and why. */
export interface ProtectionEntry {
  seq: number;
  ts: string;
  kind: 'baseline' | 'refresh';
  digest: string;
  /** refresh: the digest it replaced */
  previous: string | null;
  why: string | null;
  files: number;
  changes: Payload<'protect.refreshed'>['changes'];
}

/** The current baseline (null: none taken yet), its history oldest first, and the first record whose digest does not match its files. */
export interface ProtectionHistory {
  baseline: Protection | null;
  entries: ProtectionEntry[];
  /** seq of a record edited after it was written (its digest no longer matches its content), or null */
  tampered: number | null;
}

/** Fold every `protect.baseline` / `protect.refreshed` record; the last one is the baseline in force. */
export function protectionHistory(records: Iterable<JournalRecord>): ProtectionHistory {
  const history: ProtectionHistory = { baseline: null, entries: [], tampered: null };
  for (const record of records) {
    if (record.type !== 'protect.baseline' && record.type !== 'protect.refreshed') continue;
    const { protection } = record.payload;
    if (!protectionSound(protection) && history.tampered === null) history.tampered = record.seq;
    const refresh = record.type === 'protect.refreshed' ? record.payload : null;
    history.entries.push({
      seq: record.seq,
      ts: record.ts,
      kind: refresh ? 'refresh' : 'baseline',
      digest: protection.digest,
      previous: refresh?.previous ?? null,
      why: refresh?.why ?? null,
      files: protection.files.length,
      changes: refresh?.changes ?? [],
    });
    history.baseline = protection;
  }
  return history;
}
