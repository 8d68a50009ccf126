// What the records before a fold checkpoint still tell, saved with it: the checkpoint's ledger.
//
// `yoke run` (resuming the checkpoint's run) and `yoke status` read only the records after a
// checkpoint. Everything else they ask of the journal must come out the same as from every record:
// - folds over workspace records (the stash index, the protection baseline, the runs and which one
//   is unfinished, held tool calls and standing answers) see every such record: the ledger keeps
//   them (`kept`), whatever their run;
// - folds over the open effects of the checkpoint's run (its orphaned agents, a landing cut short,
//   the effect in flight, the gate's rulings an agent call's executed tool calls are matched against)
//   see every record of each effect not completed by the checkpoint, and every tool call requested
//   during one: kept too;
// - sums over the checkpoint's run (its usage, its tool rulings, where its last agent call and
//   protect scan are, its held lanes) start from the ledger's `run` tallies and add the records after it.
// Events, completed effects and checkpoints, the bulk of a journal, are left out.
// tests/store/projections/checkpoint-ledger.test.ts checks every such projection both ways.
import type { JournalRecord } from '../journal/record.js';
import { addCall, NO_USAGE, type UsageTotals } from '../../machines/usage-totals.js';
import { readLedger, type LedgerEntry } from './usage-ledger.js';
import { countToolRulings, noRulings, type ToolRulingCounts } from './tool-ruling-counts.js';
import { heldLanes, type LaneHold } from './held-lanes.js';

/** The checkpoint's run, summed up to the checkpoint. */
export interface RunTallies {
  /** its agent calls in ledger order, up to (not including) the first one still running then */
  usage: UsageTotals;
  /** the keys of its agent calls after those, in order: their records are kept, and they are counted later */
  uncounted: string[];
  /** its tool calls ruled on */
  rulings: ToolRulingCounts;
  /** seq of its last `agent.spawn` start and of its last completed `protect.scan` (0: none) */
  agentStarted: number;
  scanCompleted: number;
  /** the effect it was in: its last record that ends the phase search was this effect's start, not ended then */
  inFlight: InFlight | null;
  /** its lanes held then (parallel stories: `yoke run` goes on when one of them can) */
  heldLanes: LaneHold[];
}

/** An effect in flight, as the phase shown by `yoke status` names it. */
export interface InFlight {
  key: string;
  kind: string;
  params: unknown;
}

/** What a checkpoint keeps of the records before it. */
export interface CheckpointLedger {
  /** the records projections may still ask about, in journal order (see `keeps`) */
  kept: JournalRecord[];
  run: RunTallies;
}

/** Where a read that starts after a checkpoint starts (a `FoldCheckpoint`): the last record before it, its run, its ledger. */
export interface LedgerBase {
  upTo: number;
  started: { run: string | null };
  ledger: CheckpointLedger;
}

/**
 * The ledger of the checkpoint of `run` after record `upTo`. `records` are what the journal holds
 * up to there: the previous checkpoint's kept records then every record after it (`previous`), or
 * every record (null); records after `upTo` are ignored.
 */
export function advanceLedger(previous: LedgerBase | null, records: readonly JournalRecord[], run: string, upTo: number): CheckpointLedger {
  // records after another run's checkpoint are not all of `run`'s: only its own checkpoints chain
  if (previous !== null && previous.started.run !== run) throw new Error(`a checkpoint of run ${run} cannot follow one of run ${previous.started.run ?? '?'}`);
  const base = previous;
  const after = previous?.upTo ?? 0;
  const candidates: JournalRecord[] = [];
  for (const record of records) {
    if (record.seq > upTo) break;
    candidates.push(record);
  }
  const fresh = candidates.filter((record) => record.seq > after);
  const calls = countCalls(candidates, run, base);
  const positions = scanPositions(fresh, run, base);
  const tallies: RunTallies = {
    usage: calls.counted,
    uncounted: calls.uncounted,
    rulings: countToolRulings(fresh, (of) => of === run, base?.ledger.run.rulings ?? noRulings()),
    agentStarted: positions.agentStarted,
    scanCompleted: positions.scanCompleted,
    inFlight: effectInFlight(fresh, run, base),
    heldLanes: heldLanes(candidates, run, base),
  };
  const ruled = new Map<string, boolean>();
  const completed = new Set<string>();
  for (const record of candidates) {
    if (record.type === 'tool.ruled') ruled.set(record.payload.id, (ruled.get(record.payload.id) ?? false) || record.payload.ruling === 'hold');
    if (record.type === 'effect.completed' && record.run === run) completed.add(record.payload.key);
  }
  // the tool calls requested during an agent call of `run` not completed by the checkpoint: the gate
  // matches what that call ran against all of them when it ends (`callRulings`)
  const openCall = new Set<string>();
  for (const record of candidates) {
    if (record.type === 'tool.requested' && record.run === run && record.payload.key !== null && !completed.has(record.payload.key)) openCall.add(record.payload.id);
  }
  const uncounted = new Set(tallies.uncounted);
  const kept = candidates.filter((record) => keeps(record, run, ruled, completed, uncounted, openCall));
  return { kept, run: tallies };
}

/**
 * Is `record` one a projection may still ask about after the checkpoint of `run`? `ruled`: the tool
 * calls ruled on, and whether any ruling held them; `completed`: the run's completed effects;
 * `uncounted`: its agent calls the usage tally has not counted yet; `openCall`: the tool calls
 * requested during its agent calls still open.
 */
function keeps(record: JournalRecord, run: string, ruled: ReadonlyMap<string, boolean>, completed: ReadonlySet<string>, uncounted: ReadonlySet<string>, openCall: ReadonlySet<string>): boolean {
  switch (record.type) {
    case 'run.started':
    case 'run.finished':
    case 'run.abandoned':
    case 'journal.repaired':
    case 'stash.begun':
    case 'stash.pushed':
    case 'stash.cleared':
    case 'stash.restored':
    case 'stash.ended':
    case 'protect.baseline':
    case 'protect.refreshed':
    case 'tool.answered':
    case 'tool.revoked':
      return true;
    case 'tool.requested':
      // a held call's request (`yoke holds`, `yoke answer`), or one whose ruling is still to come, or one of an open agent call
      return (ruled.get(record.payload.id) ?? true) || openCall.has(record.payload.id);
    case 'tool.ruled':
      return ruled.get(record.payload.id) === true || openCall.has(record.payload.id);
    case 'effect.started':
    case 'effect.completed':
    case 'effect.interrupted':
      if (record.run !== run) return false;
      return !completed.has(record.payload.key) || (record.payload.kind === 'agent.spawn' && uncounted.has(record.payload.key));
    case 'effect.failed':
    case 'process.spawned':
      return record.run === run && !completed.has(record.payload.key);
    case 'event':
    case 'checkpoint':
    case 'run.resumed':
    case 'run.interrupted':
    case 'run.paused':
      return false;
  }
}

/** The ledger's base when it is `run`'s (a read that starts after another run's checkpoint folds `run` from its start). */
function baseFor(base: LedgerBase | null, run: string): LedgerBase | null {
  return base !== null && base.started.run === run ? base : null;
}

/** The index of the first of `records` (in journal order) whose seq is after `seq` (`records.length` when none is). */
export function indexAfter(records: readonly JournalRecord[], seq: number): number {
  let low = 0;
  let high = records.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((records[middle] as JournalRecord).seq <= seq) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The records after the base (all of them without one). */
function after(records: readonly JournalRecord[], base: LedgerBase | null): readonly JournalRecord[] {
  const from = base === null ? 0 : indexAfter(records, base.upTo);
  return from === 0 ? records : records.slice(from);
}

/** What `run`'s agent calls spent, by the usage ledger (DESIGN §6), over `records` read from `base` on. */
export function runUsage(records: readonly JournalRecord[], run: string, base: LedgerBase | null): UsageTotals {
  const from = baseFor(base, run);
  const calls = countCalls(records, run, from);
  let usage = calls.counted;
  for (const entry of calls.rest) usage = addCall(usage, entry);
  return usage;
}

/** `run`'s agent calls: the totals of those before the first still running (from the base's), and the entries from there on. */
function countCalls(records: readonly JournalRecord[], run: string, base: LedgerBase | null): { counted: UsageTotals; uncounted: string[]; rest: LedgerEntry[] } {
  const upTo = base?.upTo ?? 0;
  const carried = new Set(base?.ledger.run.uncounted ?? []);
  // run.started carries the run's `price` directives, which the ledger applies as the machine does
  const mine = records.filter((record) => record.run === run && (record.type === 'run.started' || (isAgentRecord(record) && (record.seq > upTo || carried.has(record.payload.key)))));
  const entries = readLedger(mine);
  let counted = base?.ledger.run.usage ?? NO_USAGE;
  let index = 0;
  for (; index < entries.length && (entries[index] as LedgerEntry).status !== 'running'; index += 1) counted = addCall(counted, entries[index] as LedgerEntry);
  const rest = entries.slice(index);
  return { counted, uncounted: rest.map((entry) => entry.key), rest };
}

function isAgentRecord(record: JournalRecord): record is Extract<JournalRecord, { type: 'effect.started' | 'effect.completed' | 'effect.interrupted' }> {
  return (record.type === 'effect.started' || record.type === 'effect.completed' || record.type === 'effect.interrupted') && record.payload.kind === 'agent.spawn';
}

/** The tool calls of `run` ruled on, over `records` read from `base` on. */
export function runRulings(records: readonly JournalRecord[], run: string, base: LedgerBase | null): ToolRulingCounts {
  const from = baseFor(base, run);
  return countToolRulings(after(records, from), (of) => of === run, from?.ledger.run.rulings ?? noRulings());
}

/** Where `run`'s last agent call started and its last protect scan completed (seq; 0: none), over `records` read from `base` on. */
export function scanPositions(records: readonly JournalRecord[], run: string, base: LedgerBase | null): { agentStarted: number; scanCompleted: number } {
  const from = baseFor(base, run);
  let agentStarted = from?.ledger.run.agentStarted ?? 0;
  let scanCompleted = from?.ledger.run.scanCompleted ?? 0;
  for (const record of after(records, from)) {
    if (record.run !== run) continue;
    if (record.type === 'effect.started' && record.payload.kind === 'agent.spawn') agentStarted = record.seq;
    if (record.type === 'effect.completed' && record.payload.kind === 'protect.scan') scanCompleted = record.seq;
  }
  return { agentStarted, scanCompleted };
}

/**
 * The effect `run` is in at the end of `records` (read from `base` on): searching back from the
 * end, its last run start, stop or pause means none; its last effect start means that effect,
 * unless a later record ended it. Past the base, the base's answer stands unless it ended since.
 */
export function effectInFlight(records: readonly JournalRecord[], run: string, base: LedgerBase | null): InFlight | null {
  const from = baseFor(base, run);
  const read = after(records, from);
  const ended = new Set<string>();
  for (let index = read.length - 1; index >= 0; index -= 1) {
    const record = read[index] as JournalRecord;
    if (record.run !== run) continue;
    if (record.type === 'run.started' || record.type === 'run.finished' || record.type === 'run.interrupted' || record.type === 'run.paused') return null;
    if (record.type === 'effect.completed' || record.type === 'effect.interrupted' || record.type === 'effect.failed') ended.add(record.payload.key);
    if (record.type === 'effect.started') {
      return ended.has(record.payload.key) ? null : { key: record.payload.key, kind: record.payload.kind, params: record.payload.params };
    }
  }
  const before = from?.ledger.run.inFlight ?? null;
  return before !== null && !ended.has(before.key) ? before : null;
}
