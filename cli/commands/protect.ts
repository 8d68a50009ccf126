// `yoke protect status|refresh` (DESIGN §16): look at the protection baseline, its drift and its
// history, and accept a deliberate change to the protected files (the only way a baseline changes).
import type { Config } from '../../config/types.js';
import { driftLine } from '../../machines/protect/protection-drift.js';
import type { JournalRecord } from '../../store/journal/record.js';
import { unfinishedRun } from '../../store/fold/journal-runs.js';
import { describeChanges, inspectProtection, protectionChanged, type ProtectionInspection } from '../../store/session/inspect-protection.js';
import { openWorkspace } from '../../store/session/open-workspace.js';
import { journaledConfig } from '../../store/session/plan-run.js';
import { readWorkspace } from '../../store/session/read-workspace.js';
import { refreshProtection } from '../../store/session/refresh-protection.js';
import type { WorkspacePaths } from '../../store/session/workspace-paths.js';
import { YokeError } from '../../errors/yoke-error.js';
import { findProject } from '../find-project.js';
import { loadConfig } from '../load-config.js';
import { settleLines } from '../stash-format.js';
import { warn } from '../terminal.js';

/** The config the next `yoke run` protects with: the unfinished run's journaled one, else yoke.conf. */
function protectingConfig(paths: WorkspacePaths, records: readonly JournalRecord[]): Config | null {
  return unfinishedRun(records) === null ? loadConfig(paths, warn) : journaledConfig(records);
}

/** What `yoke protect status --json` prints. */
export interface ProtectStatusReport {
  /** the patterns protected now (`auto` expanded) */
  patterns: string[];
  baseline: { digest: string; patterns: string[]; files: number } | null;
  /** the digest the files on disk have now, under the current patterns */
  current: { digest: string; files: number };
  /** no baseline yet, or the files and patterns match it (never with a tampered record) */
  unchanged: boolean;
  /** the journal record of the baseline (or a refresh) that was edited after it was written: `yoke run` refuses the workspace (exit 3), and no drift is reported against it */
  tampered: { seq: number } | null;
  drift: Array<{ path: string; kind: string; line: string }>;
  patternsAdded: string[];
  patternsRemoved: string[];
  history: ReturnType<typeof historyOf>;
}

function historyOf(inspection: ProtectionInspection) {
  return inspection.history.entries.map((entry) => ({ seq: entry.seq, ts: entry.ts, kind: entry.kind, digest: entry.digest, previous: entry.previous, why: entry.why, files: entry.files, changes: entry.changes.length }));
}

/** `yoke protect status [--json]`: read-only; exit 0 whatever it finds (the JSON's `unchanged` says whether `yoke run` would start, `tampered` why it never will). */
export async function protectStatusCommand(flags: { json: boolean }): Promise<number> {
  const paths = findProject(process.cwd());
  const { records } = await readWorkspace(paths);
  const inspection = await inspectProtection(paths, protectingConfig(paths, records), records);
  const baseline = inspection.history.baseline;
  const tampered = inspection.history.tampered;
  // A forged record says nothing about what the user changed: no drift is measured against it.
  const trusted = tampered === null;
  const report: ProtectStatusReport = {
    patterns: inspection.patterns,
    baseline: baseline === null ? null : { digest: baseline.digest, patterns: baseline.patterns, files: baseline.files.length },
    current: { digest: inspection.current.digest, files: inspection.current.files.length },
    unchanged: trusted && !protectionChanged(inspection),
    tampered: tampered === null ? null : { seq: tampered },
    drift: trusted ? inspection.drift.map((entry) => ({ path: entry.path, kind: entry.kind, line: driftLine(entry) })) : [],
    patternsAdded: trusted ? inspection.patternsAdded : [],
    patternsRemoved: trusted ? inspection.patternsRemoved : [],
    history: historyOf(inspection),
  };
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(report)}\n`);
    return 0;
  }
  const out = (line: string): void => void process.stdout.write(`${line}\n`);
  if (baseline === null) {
    if (inspection.patterns.length === 0) out('Nothing is protected: yoke.conf has no `protect` line (see docs/protect.md; `protect auto` is a good start).');
    else out(`No protection baseline yet: the next \`yoke run\` takes one of the ${inspection.current.files.length} file(s) its ${inspection.patterns.length} pattern(s) cover now (\`yoke config check\` lists them).`);
    return 0;
  }
  out(`protection baseline ${baseline.digest.slice(0, 12)}: ${baseline.files.length} file(s) under ${baseline.patterns.length} pattern(s)`);
  if (tampered !== null) {
    out(`TAMPERED: journal record ${tampered} (the protection baseline) was edited after it was written: its digest no longer matches its files, so nothing can be compared with it.`);
    out('`yoke run` refuses this workspace (exit 3): restore .loop/.journal from a backup, or start over with a new workspace.');
  } else if (report.unchanged) out('unchanged: the protected files match the baseline.');
  else {
    out(`changed since the baseline (\`yoke run\` refuses until \`yoke protect refresh --why "…"\`, or undo the change):`);
    for (const line of await describeChanges(paths, inspection)) out(line);
  }
  out('history:');
  for (const entry of inspection.history.entries) {
    const what = entry.kind === 'baseline' ? 'baseline taken' : `refreshed from ${entry.previous?.slice(0, 12) ?? '?'} (${entry.changes.length} path(s) changed)${entry.why === null ? '' : `: ${entry.why}`}`;
    out(`  record ${entry.seq}  ${entry.ts}  ${entry.digest.slice(0, 12)}  ${entry.files} file(s)  ${what}`);
  }
  return 0;
}

/** `yoke protect refresh [--why …] [--json]`: accept the protected files as they are now, listing every change accepted. */
export async function protectRefreshCommand(flags: { why?: string; json: boolean }): Promise<number> {
  const why = flags.why === undefined ? null : flags.why.trim();
  if (why === '') throw new YokeError('usage', '--why is empty; say in a few words why the protected files changed (e.g. --why "new test for the parser"), or leave --why out.');
  const paths = findProject(process.cwd());
  const session = await openWorkspace(paths, { command: 'yoke protect refresh', warn, onStale: () => undefined });
  try {
    if (session.settled) for (const line of settleLines(session.settled)) warn(line);
    const outcome = await refreshProtection(session.journal, paths, protectingConfig(paths, session.journal.records), why);
    if (flags.json) {
      process.stdout.write(`${JSON.stringify(outcome.refreshed
        ? { refreshed: true, seq: outcome.seq, digest: outcome.baseline.digest, previous: outcome.previous.digest, why, changes: outcome.record.changes, patterns: outcome.baseline.patterns }
        : { refreshed: false, digest: outcome.baseline.digest })}\n`);
      return 0;
    }
    if (!outcome.refreshed) {
      process.stdout.write(`The protected files match the baseline ${outcome.baseline.digest.slice(0, 12)}; nothing to refresh.\n`);
      return 0;
    }
    process.stdout.write(`Accepted these changes to protected files (journal record ${outcome.seq}):\n`);
    for (const line of outcome.lines) process.stdout.write(`${line}\n`);
    process.stdout.write(`protection baseline ${outcome.previous.digest.slice(0, 12)} → ${outcome.baseline.digest.slice(0, 12)}: ${outcome.baseline.files.length} file(s)${why === null ? '' : ` (why: ${why})`}.\n`);
    return 0;
  } finally {
    await session.close();
  }
}
