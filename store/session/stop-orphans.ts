// Before a run resumes or is abandoned, stop any process group a crashed yoke left running.
import { killProcessGroup } from '../../effects/process/process-identity.js';
import type { JournalRecord } from '../journal/record.js';

/**
 * For every process journaled by `run` whose effect never completed nor was marked interrupted,
 * stop its process group (identified by pid + start time, never by name), so two agents never
 * work at once. Works from the records alone, so it also covers runs recorded by another machine
 * version. Returns the effect keys whose group was stopped.
 */
export async function stopOrphans(records: readonly JournalRecord[], run: string): Promise<string[]> {
  const stopped: string[] = [];
  for (const [key, process] of orphanedProcesses(records, run)) {
    if (await killProcessGroup(process.pid, process.startTime, 2000)) stopped.push(key);
  }
  return stopped;
}

/** The processes `run` journaled whose effect neither completed nor was marked interrupted, by effect key. */
export function orphanedProcesses(records: readonly JournalRecord[], run: string): Map<string, { pid: number; startTime: string | null }> {
  const spawned = new Map<string, { pid: number; startTime: string | null }>();
  for (const record of records) {
    if (record.run !== run) continue;
    if (record.type === 'process.spawned') spawned.set(record.payload.key, { pid: record.payload.pid, startTime: record.payload.startTime });
    else if (record.type === 'effect.completed' || record.type === 'effect.interrupted') spawned.delete(record.payload.key);
  }
  return spawned;
}
