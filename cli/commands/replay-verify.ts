// `yoke replay --verify [run | --all]`: re-derive every effect request with today's machines and
// compare it with the journal, and check every protection record and what each run protected. Exit 0 when every run agrees, 1 at a divergence, 3 when a run was
// recorded by a machine version this yoke cannot fold.
import { findRun } from '../../store/fold/journal-runs.js';
import type { JournalReader, RecordPage, TornTail } from '../../store/journal/journal-store.js';
import type { StartedRecord } from '../../store/journal/record.js';
import { LaneTouchedLedger, touchedDivergence } from '../../store/projections/lane-touched.js';
import { RoutingLedger, routingDivergence } from '../../store/projections/routing-sequences.js';
import { RunVerifier, type Divergence, type Verification } from '../../store/projections/verify-run.js';
import { ProtectionChecker } from '../../store/projections/verify-protection.js';
import { ToolRulingChecker } from '../../store/projections/verify-tool-rulings.js';
import { EXIT } from '../exit-codes.js';

/**
 * Verify the chosen run (latest by default) or every run, print the verdicts, return the exit code.
 * The journal is streamed once: a verifier starts at each `run.started` that can be the chosen run
 * (with no run given, a newer run replaces the one before), so memory holds folds, never records.
 */
export async function verifyCommand(journal: AsyncIterable<RecordPage>, prefix: string | undefined, flags: { json: boolean; all: boolean }): Promise<number> {
  const starts: StartedRecord[] = [];
  const verifiers = new Map<string, RunVerifier>();
  const wanted = prefix?.toUpperCase();
  const routing = new RoutingLedger();
  const touched = new LaneTouchedLedger();
  const tools = new ToolRulingChecker();
  const protection = new ProtectionChecker();
  for await (const page of journal) {
    for (const record of page.records) {
      routing.feed(record);
      touched.feed(record);
      protection.observe(record);
      if (record.type === 'run.started') {
        starts.push(record);
        if (!flags.all && wanted === undefined) verifiers.clear();
        if (flags.all || wanted === undefined || record.run?.startsWith(wanted)) {
          verifiers.set(`${record.seq}`, new RunVerifier(record, startDivergence(routing, touched, record) ?? protection.startDivergence(record), tools));
        }
        continue;
      }
      const refreshed = protection.check(record);
      for (const verifier of verifiers.values()) {
        verifier.feed(record);
        if (refreshed !== null && verifier.started.run === record.run) verifier.diverge(refreshed);
      }
      // after the verifiers: a ruling is checked against the answers and requests before it
      tools.observe(record);
    }
  }
  // findRun refuses a journal without runs (exit 2), with --all too, and an unknown or ambiguous prefix.
  const chosen = flags.all && starts.length > 0 ? starts : [findRun(starts, prefix)];
  const verdicts = chosen.map((started) => (verifiers.get(`${started.seq}`) ?? new RunVerifier(started)).verdict())
    // DESIGN §16: an edited protection record forges the journal every run is verified from (as `yoke run` refuses it whole)
    .map((verdict) => (protection.forged !== null && verdict.status === 'verified' ? { ...verdict, status: 'diverged' as const, divergence: protection.forged } : verdict));
  for (const verdict of verdicts) {
    process.stdout.write(flags.json ? `${JSON.stringify(verdict)}\n` : `${renderVerdict(verdict).join('\n')}\n`);
  }
  if (verdicts.some((verdict) => verdict.status === 'diverged')) return EXIT.unsuccessful;
  if (verdicts.some((verdict) => verdict.status === 'refused')) return EXIT.workspace;
  return EXIT.ok;
}

/**
 * What a run's start decided from the runs before it, checked against them (the ledgers have just
 * folded the start, which adds nothing): the routing decision, and a parallel run's `touchedBefore`.
 */
function startDivergence(routing: RoutingLedger, touched: LaneTouchedLedger, started: StartedRecord): Divergence | null {
  const difference = routingDivergence(routing, started);
  if (difference) {
    return {
      seq: started.seq, record: 'run.started', key: null, path: 'payload.input.routing',
      what: "the journaled routing decision is not the one today's rules derive from the runs before it", ...difference,
    };
  }
  const overlap = touchedDivergence(touched.current(), started);
  if (!overlap) return null;
  return {
    seq: started.seq, record: 'run.started', key: null, path: 'payload.input.touchedBefore',
    what: "the journaled files each story's last lane attempt touched are not what the lane boundary scans before the run say", ...overlap,
  };
}

/** `yoke replay --verify` on a store, streamed (a torn tail is left alone and `warnTorn` hears of it). */
export function verifyStore(store: JournalReader, prefix: string | undefined, flags: { json: boolean; all: boolean }, warnTorn: (torn: TornTail | null) => void): Promise<number> {
  return verifyCommand(pagesThen(store.read(), warnTorn), prefix, flags);
}

/** Yield `pages`, then tell `torn` about the last page's torn tail. */
async function* pagesThen(pages: AsyncIterable<RecordPage>, torn: (tail: TornTail | null) => void): AsyncGenerator<RecordPage> {
  let last: TornTail | null = null;
  for await (const page of pages) {
    last = page.torn;
    yield page;
  }
  torn(last);
}

/** A verdict as text: one line when it agrees, the divergence with both sides otherwise. */
export function renderVerdict(verdict: Verification): string[] {
  const head = `run ${verdict.run} (${verdict.machine} v${verdict.version ?? '?'})`;
  switch (verdict.status) {
    case 'verified':
      return [`${head}: verified: ${verdict.effects} effect requests${verdict.rulings === undefined ? ' and' : ','} ${verdict.events} events${verdict.rulings === undefined ? '' : ` and ${verdict.rulings} tool rulings`} re-derived by today's machine match the journal${verdict.finished ? ', and so does how it ended' : ' (the run is unfinished)'}.`];
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
