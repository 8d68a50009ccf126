// `yoke replay --verify`: would today's machines make the same decisions as the journal says?
//
// Every record of a run is checked against the fold of the records before it (Temporal's replayer
// check): each `effect.started` must be the oldest request today's machine still owes, with the
// same key, kind and params; each event must be exactly what its effect's journaled result (or
// interruption) produces; an interruption only for a kind whose policy surfaces it (or a lane's turn
// effect withdrawn because its worktree was made again on resume); and
// `run.finished` must match the final state the machine reaches. The first divergence is reported
// with its seq and both sides. Nothing is executed: results come from the journal.
import { lifecycleForRun } from '../fold/machine-versions.js';
import type { JournalRecord } from '../journal/record.js';
import { RunFold } from '../fold/run-fold.js';
import { YokeError } from '../../errors/yoke-error.js';
import { checkRecord, keyOf, type Divergence } from './check-record.js';
import { ToolRulingChecker } from './verify-tool-rulings.js';
import type { RulingRun } from './verify-tool-scope.js';

export type { Divergence } from './check-record.js';

type StartedRecord = Extract<JournalRecord, { type: 'run.started' }>;

/** The verdict on one run. */
export interface Verification {
  run: string;
  machine: string;
  version: number | null;
  /** verified: every record agrees; diverged: see `divergence`; refused: this yoke cannot fold it */
  status: 'verified' | 'diverged' | 'refused';
  /** effect requests re-derived and compared */
  effects: number;
  /** events compared with their effect's result */
  events: number;
  finished: boolean;
  /** tool rulings re-derived by today's classifier and policy and found equal (absent: none) */
  rulings?: number;
  divergence: Divergence | null;
  refusal: string | null;
}

/** Verify one run of `records` (the whole journal) against today's machine for its recorded version. */
export function verifyRun(records: Iterable<JournalRecord>, started: StartedRecord): Verification {
  const tools = new ToolRulingChecker();
  const verifier = new RunVerifier(started, null, tools);
  for (const record of records) {
    if (verifier.settled) break;
    verifier.feed(record);
    tools.observe(record);
  }
  return verifier.verdict();
}

/**
 * The same verification told one record at a time, so a journal can be streamed through it (and
 * through one verifier per run at once): `feed` every record in journal order, then `verdict()`.
 */
export class RunVerifier {
  private readonly result: Verification;
  private readonly fold: RunFold | null = null;
  private readonly startedKeys = new Set<string>();

  /** `startDivergence`: what is wrong with the start itself (a routing decision today's rules would not make). */
  /** `tools`: the journal-wide checker of tool rulings (its `observe` is the caller's, after `feed`). */
  constructor(readonly started: StartedRecord, startDivergence: Divergence | null = null, private readonly tools: ToolRulingChecker | null = null) {
    this.result = {
      run: started.run ?? '', machine: started.machine ?? '?', version: started.mv,
      status: startDivergence ? 'diverged' : 'verified', effects: 0, events: 0, finished: false, divergence: startDivergence, refusal: null,
    };
    try {
      // Settled effects are forgotten: a streamed verification keeps only what is still open.
      this.fold = new RunFold(lifecycleForRun(started).machine, started, undefined, (status) => void this.startedKeys.delete(status.request.key));
    } catch (error) {
      if (!(error instanceof YokeError)) throw error;
      this.result.status = 'refused';
      this.result.refusal = error.message;
    }
  }

  /** Diverged or refused: later records change nothing. */
  get settled(): boolean {
    return this.result.status !== 'verified';
  }

  /** Check and fold the next record of the journal (records of other runs are skipped). */
  feed(record: JournalRecord): void {
    const { fold, started, startedKeys } = this;
    if (!fold || this.settled || record.seq <= started.seq || record.run !== started.run) return;
    let divergence = checkRecord(fold, record, startedKeys)
      ?? this.tools?.check(record, rulingRun(fold)) ?? null;
    if (!divergence) {
      try {
        fold.apply(record, true);
      } catch (error) {
        if (!(error instanceof YokeError)) throw error;
        divergence = { seq: record.seq, record: record.type, key: keyOf(record), what: error.message, path: null, journal: record.payload, machine: null };
      }
    }
    if (divergence) {
      this.result.status = 'diverged';
      this.result.divergence = divergence;
      return;
    }
    if (record.type === 'effect.started') {
      this.result.effects += startedKeys.has(record.payload.key) ? 0 : 1;
      startedKeys.add(record.payload.key);
    }
    if (record.type === 'event' && record.payload.cause !== null) this.result.events += 1;
  }

  /** A divergence found outside the fold (a record the journal holds for every run, a check across runs): the first one stands. */
  diverge(divergence: Divergence): void {
    if (this.settled) return;
    this.result.status = 'diverged';
    this.result.divergence = divergence;
  }

  /** The verdict on the records fed so far. */
  verdict(): Verification {
    const rulings = this.tools?.verified.get(this.started.run ?? '') ?? 0;
    return { ...this.result, finished: this.fold !== null && this.fold.finished !== null, ...(rulings > 0 ? { rulings } : {}) };
  }
}

/** What the run gave its tool-call gate, from its fold: the config, the root, the spec files, the protect patterns. */
function rulingRun(fold: RunFold): RulingRun {
  const context = fold.snapshot.context as { config?: RulingRun['config']; toolCallProof?: true; loopDir?: string; laneLoopRelative?: true; specFiles?: string[]; protection?: { patterns: string[] } } | undefined;
  return {
    config: context?.config, proof: context?.toolCallProof === true, loopDir: context?.loopDir ?? null, lanesOutside: context?.laneLoopRelative === true,
    specFiles: context?.specFiles ?? [], protect: context?.protection?.patterns ?? [],
  };
}
