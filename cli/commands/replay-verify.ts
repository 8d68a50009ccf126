// `yoke replay --verify [run | --all]`: re-derive every effect request with today's machines and
// compare it with the journal. Exit 0 when every run agrees, 1 at a divergence, 3 when a run was
// recorded by a machine version this yoke cannot fold.
import { findRun, runStarts } from '../../store/journal-runs.js';
import type { JournalRecord } from '../../store/record.js';
import { verifyRun, type Verification } from '../../store/verify-run.js';
import { EXIT } from '../exit-codes.js';

/** Verify the chosen run (latest by default) or every run, print the verdicts, return the exit code. */
export function verifyCommand(records: readonly JournalRecord[], prefix: string | undefined, flags: { json: boolean; all: boolean }): number {
  // findRun refuses a journal without runs (exit 2), with --all too.
  const starts = flags.all && runStarts(records).length > 0 ? runStarts(records) : [findRun(records, prefix)];
  const verdicts = starts.map((started) => verifyRun(records, started));
  for (const verdict of verdicts) {
    process.stdout.write(flags.json ? `${JSON.stringify(verdict)}\n` : `${renderVerdict(verdict).join('\n')}\n`);
  }
  if (verdicts.some((verdict) => verdict.status === 'diverged')) return EXIT.unsuccessful;
  if (verdicts.some((verdict) => verdict.status === 'refused')) return EXIT.workspace;
  return EXIT.ok;
}

/** A verdict as text: one line when it agrees, the divergence with both sides otherwise. */
export function renderVerdict(verdict: Verification): string[] {
  const head = `run ${verdict.run} (${verdict.machine} v${verdict.version ?? '?'})`;
  switch (verdict.status) {
    case 'verified':
      return [`${head}: verified: ${verdict.effects} effect requests and ${verdict.events} events re-derived by today's machine match the journal${verdict.finished ? ', and so does how it ended' : ' (the run is unfinished)'}.`];
    case 'refused':
      return [`${head}: cannot verify: ${verdict.refusal ?? 'refused'}`];
    case 'diverged': {
      const d = verdict.divergence;
      if (!d) return [`${head}: diverged`];
      return [
        `${head}: DIVERGED at seq ${d.seq} (${d.record}${d.key ? `, effect ${d.key}` : ''}):`,
        `  ${d.what}`,
        ...(d.path ? [`  first difference at ${d.path}`] : []),
        `  journal:         ${show(d.journal)}`,
        `  today's machine: ${d.machine === null ? '(nothing)' : show(d.machine)}`,
      ];
    }
  }
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 400 ? `${text.slice(0, 397)}...` : text;
}
