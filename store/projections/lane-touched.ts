// What each story's last lane attempt touched, from the journaled boundary scans of parallel lanes
// (DESIGN §10): the file-overlap prediction a new parallel run starts from, and what
// `replay --verify` checks a run's journaled `touchedBefore` against.
import type { JournalRecord, StartedRecord } from '../journal/record.js';

/**
 * Story id → the paths its last completed lane `boundary.scan` reported changed, told one record at a
 * time. Only lane scans count: a lane's worktree is cut from the target, so its scan is that story's
 * own work; a serial run's scan is measured from the run's start and mixes every story it passed.
 */
export class LaneTouchedLedger {
  private readonly scans = new Map<string, string>();
  private readonly touched: Record<string, string[]> = {};

  /** Fold the next record of the journal. */
  feed(record: JournalRecord): void {
    if (record.type === 'effect.started' && record.payload.kind === 'boundary.scan') {
      const lane = (record.payload.params as { lane?: unknown } | null)?.lane;
      if (typeof lane === 'string') this.scans.set(record.payload.key, lane);
    } else if (record.type === 'effect.completed') {
      const story = this.scans.get(record.payload.key);
      const changed = (record.payload.result as { changed?: unknown } | null)?.changed;
      if (story !== undefined && Array.isArray(changed)) this.touched[story] = changed.filter((path): path is string => typeof path === 'string');
    }
  }

  /** What the records so far say (stories no lane scanned are absent). */
  current(): Record<string, string[]> {
    return structuredClone(this.touched);
  }
}

/** The lane scans' verdict over `records` (the runs before the one about to start). */
export function laneTouched(records: Iterable<JournalRecord>): Record<string, string[]> {
  const ledger = new LaneTouchedLedger();
  for (const record of records) ledger.feed(record);
  return ledger.current();
}

/**
 * `replay --verify` for a parallel run's start: its journaled `touchedBefore` must be what the lane
 * scans before it say (null: agreed). Only runs that journal `laneRequeue` are checked: they were
 * started by a yoke that plans `touchedBefore`; older runs never journaled one.
 */
export function touchedDivergence(before: Record<string, string[]>, started: StartedRecord): { journal: unknown; machine: unknown } | null {
  const input = started.payload.input as { config?: { parallel?: number }; laneRequeue?: boolean; touchedBefore?: Record<string, string[]> } | null;
  if (input?.laneRequeue !== true || input.config?.parallel === undefined) return null;
  const journal = input.touchedBefore ?? {};
  return JSON.stringify(journal) === JSON.stringify(before) ? null : { journal, machine: before };
}
