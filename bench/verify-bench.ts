// Benchmark: `yoke replay --verify` streamed over a generated journal, in records per second and
// as a ratio to a raw `JSON.parse` of the same file.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { FileJournalReader } from '../store/journal/file/file-journal-reader.js';
import { findRun } from '../store/fold/journal-runs.js';
import type { StartedRecord } from '../store/journal/record.js';
import { RunVerifier } from '../store/projections/verify-run.js';
import { heapForStreamedFold } from '../cli/streamed-fold-heap.js';
import { both, rawParse, timed, timedAsync, verdict } from './bench-timing.js';
import { writeSyntheticRun } from './synthetic-run.js';

/** Verify a ~100k-record journal (10k with --quick) the way `yoke replay --verify` does. */
export async function verifyBench(work: string, quick: boolean, report: (name: string, lines: string[]) => void): Promise<void> {
  const iterations = quick ? 500 : 4800;
  const path = join(work, 'verify.jsonl');
  const records = await writeSyntheticRun(path, iterations);
  const raw = timed(() => rawParse(readFileSync(path, 'utf8')));
  heapForStreamedFold(); // as `yoke replay --verify` does before it folds
  const verify = await timedAsync(async () => {
    let verifier: RunVerifier | null = null;
    const starts: StartedRecord[] = [];
    for await (const page of new FileJournalReader(path).read()) {
      for (const record of page.records) {
        if (record.type === 'run.started') {
          starts.push(record);
          verifier = new RunVerifier(record);
        } else verifier?.feed(record);
      }
    }
    findRun(starts);
    return verifier?.verdict();
  });
  rmSync(path);
  if (verify.value?.status !== 'verified') throw new Error(`the synthetic journal did not verify: ${JSON.stringify(verify.value?.divergence)}`);
  report(`replay --verify: stream, check and re-derive a ${records}-record journal (${iterations} iterations)`, [
    `raw JSON.parse of every line: ${both(raw)} (${Math.round(records / (raw.ms / 1000))} records/s)`,
    `verify (streamed):            ${both(verify)} (${Math.round(records / (verify.ms / 1000))} records/s wall, ${Math.round(records / (verify.cpuMs / 1000))} records/s CPU; ${verdict('≥ 100000 records/s', records / (verify.ms / 1000) >= 100_000, quick, 'the fold through XState is about half of it, reading and checking the lines a third: docs/performance.md')})`,
    `ratio to raw JSON.parse: ${(verify.ms / raw.ms).toFixed(2)}x wall, ${(verify.cpuMs / raw.cpuMs).toFixed(2)}x CPU`,
  ]);
}
