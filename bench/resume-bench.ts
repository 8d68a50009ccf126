// Benchmark: what `yoke run` pays to resume a long run — open the journal (read, check every
// record and the hash chain), find the unfinished run, fold it through the machine.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { findRun, foldRun, unfinishedRun } from '../store/fold/journal-runs.js';
import { canonical } from '../store/fold/run-fold.js';
import { CHECKPOINT_EVERY, CheckpointTaker, loadCheckpoint, resumeFromCheckpoint } from '../store/session/checkpoint-file.js';
import { foldCheckedRun } from '../store/session/fold-checked-run.js';
import { openFileJournal } from '../store/journal/file/open-file-journal.js';
import { both, rawParse, timed, timedAsync, verdict } from './bench-timing.js';
import { writeSyntheticRun } from './synthetic-run.js';

/** Resume of an `iterations`-iteration loop journal, as a ratio to a raw `JSON.parse` of its lines. */
export async function resumeBench(work: string, quick: boolean, report: (name: string, lines: string[]) => void): Promise<void> {
  const iterations = quick ? 1000 : 10_000;
  const path = join(work, 'resume.jsonl');
  const sidecar = join(work, 'resume-checkpoint.json');
  // The checkpoint as far from the end as it gets: CHECKPOINT_EVERY records before it.
  const at = Math.max(1, iterations * 21 - CHECKPOINT_EVERY);
  const records = await writeSyntheticRun(path, iterations, { finished: false, checkpoint: { at, taker: new CheckpointTaker(path, sidecar) } });
  const raw = timed(() => rawParse(readFileSync(path, 'utf8')));
  const open = await timedAsync(() => openFileJournal(path));
  const journal = open.value;
  const fold = timed(() => {
    const run = unfinishedRun(journal.records);
    if (run === null) throw new Error('the synthetic run should be unfinished');
    return foldRun(journal.records, findRun(journal.records, run));
  });
  // `yoke run` today: the whole journal read and checked, the fold from the checkpoint on.
  const checked = timed(() => {
    const started = findRun(journal.records);
    return foldCheckedRun(journal.records, started, (seq) => `record ${seq}`, loadCheckpoint(sidecar));
  });
  // Checkpoint-forward: the prefix hashed, not parsed; only the records after the checkpoint read and folded.
  const forward = timed(() => {
    const checkpoint = loadCheckpoint(sidecar);
    const read = checkpoint === null ? null : resumeFromCheckpoint(path, checkpoint);
    if (read === null) throw new Error('the bench checkpoint should be trusted');
    return read;
  });
  if (canonical(forward.value.fold.state()) !== canonical(fold.value.state())) throw new Error('the checkpoint-forward fold differs from the full fold');
  await journal.close();
  rmSync(path);
  rmSync(sidecar);
  const total = { ms: open.ms + fold.ms, cpuMs: open.cpuMs + fold.cpuMs };
  const viaCheckpoint = { ms: open.ms + checked.ms, cpuMs: open.cpuMs + checked.cpuMs };
  report(`resume: open + find + fold a ${iterations}-iteration journal (${records} records)`, [
    `raw JSON.parse of every line:                     ${both(raw)}`,
    `open the writer (read, schema, seq, hash chain):   ${both(open)}`,
    `find the unfinished run and fold it:               ${both(fold)}`,
    `full read + full fold (no checkpoint): ${both(total)} (${Math.round(records / (total.ms / 1000))} records/s wall); ratio to raw JSON.parse: ${(total.ms / raw.ms).toFixed(2)}x wall, ${(total.cpuMs / raw.cpuMs).toFixed(2)}x CPU`,
    `checked fold from the checkpoint (${CHECKPOINT_EVERY} records before the end):  ${both(checked)}`,
    `yoke run today (full read + fold from the checkpoint): ${both(viaCheckpoint)}, ${(total.cpuMs / viaCheckpoint.cpuMs).toFixed(2)}x less CPU than without`,
    `checkpoint-forward (prefix hashed, ${forward.value.records.length} records read and folded): ${both(forward)}; ${verdict('≤ 1000 ms for 10k iterations', forward.ms <= 1000, quick, 'see docs/performance.md')}`,
    `  (yoke run does not take this path yet: its other projections still read every record)`,
  ]);
}
