// Finding crash points in a reference run's journal: the seq of the nth record of a kind, so a
// YOKE_FAILPOINT=crash-after:<seq> lands exactly there in an identical run.
import type { JournalRecord } from './journal-records.js';

interface PayloadView {
  key?: string;
  kind?: string;
  params?: { file?: string; role?: string };
  cause?: string | null;
  event?: { type: string };
}

const view = (record: JournalRecord): PayloadView => record.payload as PayloadView;

/** What a record is about: `event NOTES_RESET`, `effect.started agent.spawn:judge`, `effect.completed file.write:saga-log.md`, … */
export function describeRecord(record: JournalRecord, records: readonly JournalRecord[]): string {
  const p = view(record);
  if (record.type === 'event') return `event ${p.event?.type ?? '?'}${p.cause ? `:${detailOf(p.cause, records)}` : ''}`;
  if (p.key !== undefined) return `${record.type} ${p.kind ?? '?'}:${detailOf(p.key, records)}`;
  return record.type;
}

/** The file or role an effect key was about (from its `effect.started`). */
function detailOf(key: string, records: readonly JournalRecord[]): string {
  const started = records.find((r) => r.type === 'effect.started' && view(r).key === key);
  const params = started ? view(started).params : undefined;
  return params?.file ?? params?.role ?? '';
}

/** The seq of the `nth` (1-based) record whose description is `label` (see describeRecord); throws when missing. */
export function seqOf(records: readonly JournalRecord[], label: string, nth = 1): number {
  const matches = records.filter((r) => describeRecord(r, records) === label);
  const record = matches[nth - 1];
  if (!record) throw new Error(`the journal has ${matches.length} record(s) "${label}", not ${nth}: ${records.map((r) => `${r.seq} ${describeRecord(r, records)}`).join('; ')}`);
  return record.seq;
}

/** Keys of the agent calls whose completion is journaled. */
export function completedAgentKeys(records: readonly JournalRecord[]): string[] {
  return records.filter((r) => r.type === 'effect.completed' && view(r).kind === 'agent.spawn').map((r) => view(r).key ?? '');
}
