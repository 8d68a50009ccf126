// Benchmark: what `yoke run` pays to resume a long run — open the journal (read, check every
// record and the hash chain), find the unfinished run, fold it through the machine.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { findRun, foldRun, unfinishedRun } from '../store/fold/journal-runs.js';
import { openFileJournal } from '../store/journal/file/open-file-journal.js';
import { both, rawParse, timed, timedAsync, verdict } from './bench-timing.js';
import { writeSyntheticRun } from './synthetic-run.js';

/** Resume of an `iterations`-iteration loop journal, as a ratio to a raw `JSON.parse` of its lines. */
export async function resumeBench(work: string, quick: boolean, report: (name: string, lines: string[]) => void): Promise<void> {
  const iterations = quick ? 1000 : 10_000;
  const path = join(work, 'resume.jsonl');
  const records = await writeSyntheticRun(path, iterations, { finished: false });
  const raw = timed(() => rawParse(readFileSync(path, 'utf8')));
  const open = await timedAsync(() => openFileJournal(path));
  const journal = open.value;
  const fold = timed(() => {
    const run = unfinishedRun(journal.records);
    if (run === null) throw new Error('the synthetic run should be unfinished');
    return foldRun(journal.records, findRun(journal.records, run));
  });
  await journal.close();
  rmSync(path);
  const total = { ms: open.ms + fold.ms, cpuMs: open.cpuMs + fold.cpuMs };
  report(`resume: open + find + fold a ${iterations}-iteration journal (${records} records)`, [
    `raw JSON.parse of every line:                     ${both(raw)}`,
    `open the writer (read, schema, seq, hash chain):   ${both(open)}`,
    `find the unfinished run and fold it:               ${both(fold)}`,
    `resume total: ${both(total)} (${Math.round(records / (total.ms / 1000))} records/s wall; ${verdict('≤ 1000 ms for 10k iterations', total.ms <= 1000, quick, 'every record is parsed and folded; a checkpoint is not built yet')})`,
    `ratio to raw JSON.parse: ${(total.ms / raw.ms).toFixed(2)}x wall, ${(total.cpuMs / raw.cpuMs).toFixed(2)}x CPU`,
  ]);
}
