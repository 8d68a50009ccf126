// `yoke runs`: every run in the journal, oldest first.
import { foldRun, runStarts } from '../../store/fold/journal-runs.js';
import { summarizeRun, summarizeUnfoldable, type RunSummary } from '../../store/projections/run-summary.js';
import { readWorkspace } from '../../store/session/read-workspace.js';
import { YokeError } from '../../errors/yoke-error.js';
import { findProjectQuick } from '../find-project-quick.js';
import { workspaceTarget } from '../workspace-target.js';

/** One line (or one JSON object) per run. */
export async function runsCommand(flags: { json: boolean; workspace?: string }): Promise<number> {
  const { records } = await readWorkspace(await workspaceTarget(flags.workspace, () => findProjectQuick(process.cwd())));
  const summaries = runStarts(records).map((started): RunSummary => {
    try {
      return summarizeRun(foldRun(records, started), records);
    } catch (error) {
      // A run from another machine version is still listed, from its records alone.
      if (error instanceof YokeError && error.code === 'workspace') return summarizeUnfoldable(started, records);
      throw error;
    }
  });
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(summaries)}\n`);
    return 0;
  }
  if (summaries.length === 0) {
    process.stdout.write('No runs yet. Start one with `yoke run`.\n');
    return 0;
  }
  for (const s of summaries) {
    const outcome = s.status === 'finished' ? `${s.reason ?? '?'} (exit ${s.exitCode ?? '?'})` : s.status;
    process.stdout.write(`${s.run}  ${s.startedAt}  ${s.mode.padEnd(5)}  iteration ${s.iteration ?? '-'}/${s.maxIterations ?? '-'}  ${outcome}\n`);
  }
  return 0;
}
