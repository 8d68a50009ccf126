// `yoke status`: where the latest run stands, read from the journal (never changes anything).
import { readJournalFile } from '../../store/journal-file.js';
import { findRun, foldRun } from '../../store/journal-runs.js';
import { summarizeRun, type RunSummary } from '../../store/run-summary.js';
import { lockIsLive, readLock } from '../../store/workspace-lock.js';
import { findProject } from '../find-project.js';

/** Print the latest run's summary and whether a yoke is working on it now. */
export function statusCommand(flags: { json: boolean }): number {
  const paths = findProject(process.cwd());
  const { records, torn } = readJournalFile(paths.journal);
  const owner = readLock(paths.lock);
  const live = owner !== null && owner.pid !== process.pid && lockIsLive(owner);
  if (records.every((record) => record.type !== 'run.started')) {
    if (flags.json) process.stdout.write(`${JSON.stringify({ run: null, running: live })}\n`);
    else process.stdout.write('No runs yet. Start one with `yoke run`.\n');
    return 0;
  }
  const started = findRun(records);
  const summary = summarizeRun(foldRun(records, started), records);
  const running = live && summary.status === 'unfinished';
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ ...summary, running, pid: running ? owner?.pid ?? null : null, tornTail: torn !== null })}\n`);
    return 0;
  }
  process.stdout.write(`${renderStatus(summary, running, owner?.pid ?? null)}\n`);
  return 0;
}

function renderStatus(summary: RunSummary, running: boolean, pid: number | null): string {
  const lines = [`run ${summary.run} (${summary.mode}, machine ${summary.machine} v${summary.machineVersion ?? '?'})`];
  lines.push(`  started   ${summary.startedAt}`);
  lines.push(`  iteration ${summary.iteration ?? '-'} of ${summary.maxIterations ?? '-'}, ${summary.agentCalls} worker call(s)${summary.interruptions > 0 ? `, ${summary.interruptions} interrupted` : ''}`);
  lines.push(`  state     ${summary.state}`);
  if (summary.status === 'finished') {
    lines.push(`  finished  ${summary.lastRecordAt}: ${summary.exitCode === 0 ? 'success' : summary.reason ?? 'unsuccessful'} (exit ${summary.exitCode ?? '?'})`);
  } else if (summary.status === 'abandoned') {
    lines.push('  abandoned (a fresh run replaced it)');
  } else if (running) {
    lines.push(`  running   yoke pid ${pid ?? '?'}, last record ${summary.lastRecordAt}`);
  } else {
    lines.push(`  stopped   ${summary.lastStop ?? 'unknown'} at ${summary.lastRecordAt}; \`yoke run\` resumes it`);
  }
  return lines.join('\n');
}
