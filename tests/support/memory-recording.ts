// A finished loop run recorded by the real runner in a MemoryWorld, for replay and verify tests.
import { join } from 'node:path';
import { LIFECYCLES, type Lifecycle } from '../../machines/lifecycles/registry.js';
import { readJournalFile } from '../../store/journal/file/journal-file.js';
import type { JournalRecord } from '../../store/journal/record.js';
import { memoryLoopInput } from './memory-input.js';
import { MemoryProcess, removeScratch, scratchDir } from './memory-process.js';
import { MemoryWorld } from './memory-world.js';

/** The config of `recordLoopRun`: a boundary, one guard, a commit after every passing iteration. */
export const RECORDED_CONF = ['max-iterations 4', 'no-modify vendor/', 'guard tests npm test', 'commit each', 'hook iteration-end echo end'];

/** Run the loop to its end in a fresh world (`script` sets it up) and return the journal's records. */
export async function recordLoopRun(script: (world: MemoryWorld) => void, conf: readonly string[] = RECORDED_CONF): Promise<JournalRecord[]> {
  const dir = scratchDir('yoke-recording-');
  try {
    const world = new MemoryWorld();
    script(world);
    const path = join(dir, 'journal.jsonl');
    const process = new MemoryProcess(path, world, LIFECYCLES.loop as Lifecycle, memoryLoopInput(conf), null);
    const result = await process.done;
    if (result === 'crashed' || result.kind !== 'finished') throw new Error(`the recorded run did not finish: ${JSON.stringify(result)}`);
    return readJournalFile(path).records;
  } finally {
    removeScratch(dir);
  }
}
