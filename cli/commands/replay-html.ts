// `yoke replay --html <file>`: write the run's page (diagram with its path, per-state figures, timeline).
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { machineGraph } from '../graph/machine-graph.js';
import { replayPage } from '../graph/replay-page.js';
import { lifecycleForRun } from '../../store/fold/machine-versions.js';
import type { JournalRecord } from '../../store/journal/record.js';
import { replayRun } from '../../store/projections/replay-steps.js';

/** Replay the run and write its page to `file`; says where it went on stderr. */
export async function replayHtmlCommand(records: readonly JournalRecord[], started: Extract<JournalRecord, { type: 'run.started' }>, file: string): Promise<number> {
  const lifecycle = lifecycleForRun(started);
  const replayed = replayRun(records, started);
  const page = await replayPage(machineGraph(lifecycle.name, lifecycle.version, lifecycle.machine), replayed);
  const target = resolve(file);
  writeFileSync(target, page);
  process.stderr.write(`yoke: wrote ${target} (${replayed.steps.length} steps of run ${replayed.run}); it works offline.\n`);
  return 0;
}
