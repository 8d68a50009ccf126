// What each story's last lane attempt touched, from the journaled boundary scans of parallel lanes
// (DESIGN §10): the file-overlap prediction a new parallel run starts from.
import type { JournalRecord } from '../journal/record.js';

/**
 * Story id → the paths its last completed lane `boundary.scan` reported changed, over `records` (the
 * runs before the one about to start). Only lane scans count: a lane's worktree is cut from the
 * target, so its scan is that story's own work; a serial run's scan is measured from the run's start
 * and mixes every story it passed. Stories no lane scanned are absent.
 */
export function laneTouched(records: Iterable<JournalRecord>): Record<string, string[]> {
  const scans = new Map<string, string>();
  const touched: Record<string, string[]> = {};
  for (const record of records) {
    if (record.type === 'effect.started' && record.payload.kind === 'boundary.scan') {
      const lane = (record.payload.params as { lane?: unknown } | null)?.lane;
      if (typeof lane === 'string') scans.set(record.payload.key, lane);
    } else if (record.type === 'effect.completed') {
      const story = scans.get(record.payload.key);
      const changed = (record.payload.result as { changed?: unknown } | null)?.changed;
      if (story !== undefined && Array.isArray(changed)) touched[story] = changed.filter((path): path is string => typeof path === 'string');
    }
  }
  return touched;
}
