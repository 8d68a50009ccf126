// The checkpoint ledger (store/projections/checkpoint-ledger.ts): a command that reads only the
// records after a checkpoint, plus what its ledger kept, must get from every projection it asks
// what a read of every record gets. Random journals (runs started, finished and abandoned; effects
// started, spawned, completed, interrupted, failed and retried; tool calls ruled, held, answered and
// revoked; stash operations; protection baselines; the bulk records in between), cut at every
// record where a run is unfinished: each projection on the kept records and the records after the
// cut equals the projection on every record, and a ledger carried forward from an earlier
// checkpoint equals one taken from every record.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeProtection } from '../../../machines/protect/protection.js';
import { findRun, runStarts, unfinishedRun } from '../../../store/fold/journal-runs.js';
import { answerEvents, callRulings, journalAnswers, toolHolds } from '../../../store/gate/tool-records.js';
import type { JournalRecord, RecordDraft } from '../../../store/journal/record.js';
import { advanceLedger, effectInFlight, runRulings, runUsage, scanPositions, type CheckpointLedger, type LedgerBase } from '../../../store/projections/checkpoint-ledger.js';
import { heldLanes } from '../../../store/projections/held-lanes.js';
import { protectionHistory } from '../../../store/projections/protection-history.js';
import { foldStashIndex } from '../../../store/stash/stash-index.js';
import { openLandings } from '../../../store/session/cut-short-landing.js';
import { orphanedProcesses } from '../../../store/session/stop-orphans.js';

const HEX = 'a'.repeat(64);
const KINDS = ['agent.spawn', 'agent.spawn', 'protect.scan', 'story.land', 'check.run'] as const;

/** Builds a journal record by record, as a plausible yoke would write it. */
class JournalModel {
  readonly records: JournalRecord[] = [];
  private run: string | null = null;
  private runs = 0;
  private open: Array<{ key: string; kind: string }> = [];
  private holds: string[] = [];
  private answers: string[] = [];
  private stash: string[] = [];
  private effects = 0;

  add(draft: RecordDraft): void {
    const seq = this.records.length + 1;
    this.records.push({ v: 1, seq, id: `01J${String(seq).padStart(23, '0')}`, ts: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(), prev: HEX, ...draft });
  }

  private mine<T extends RecordDraft['type']>(type: T, payload: Extract<RecordDraft, { type: T }>['payload']): void {
    this.add({ type, run: this.run, machine: 'loop', mv: 1, payload } as RecordDraft);
  }

  /** How an agent call ended, when it held its lane: on a tool call (one of the holds so far), or unable to authenticate. */
  private setback(n: number): Record<string, unknown> {
    const hold = this.holds[n % Math.max(1, this.holds.length)];
    if (n % 4 === 1 && hold !== undefined) return { classification: 'tool-held', detail: `held ${hold}`, toolHold: { id: hold } };
    if (n % 4 === 2) return { classification: 'auth-error', detail: 'no credentials' };
    return {};
  }

  /** One step of a journal: `choice` picks what happens, `n` parameterizes it. */
  step(choice: number, n: number): void {
    const run = this.run;
    if (run === null || choice === 0) {
      if (run !== null) this.mine(n % 2 === 0 ? 'run.finished' : 'run.abandoned', n % 2 === 0 ? { state: 'done', exitCode: 0, reason: 'done' } : { reason: 'yoke run --fresh' });
      this.runs += 1;
      this.run = `01RUN${String(this.runs).padStart(21, '0')}`;
      this.open = [];
      this.mine('run.started', { mode: 'loop', input: { config: { prices: n % 3 === 0 ? { bench: { inputPerMTok: 3, outputPerMTok: 15 } } : {} } }, argv: ['run'] });
      return;
    }
    const openEffect = this.open[n % Math.max(1, this.open.length)];
    switch (choice) {
      case 1: case 2: case 3: {
        const kind = KINDS[n % KINDS.length] as string;
        this.effects += 1;
        const key = `${run}/${this.effects}/0`;
        this.open.push({ key, kind });
        // agent calls in lanes S1 and S2 (parallel stories) or in the main tree
        const params = kind === 'agent.spawn' ? { role: n % 4 === 0 ? 'judge' : 'worker', iteration: this.effects, model: null, ...(n % 3 === 0 ? {} : { lane: `S${n % 3}` }) } : kind === 'story.land' ? { story: 'S1', target: 'main', from: 'abc', lane: 'S1' } : { n };
        this.mine('effect.started', { key, kind, params, attempt: 1 });
        if (kind === 'agent.spawn' && n % 2 === 0) this.mine('process.spawned', { key, pid: 1000 + n, startTime: String(n) });
        return;
      }
      case 4: case 5: case 6:
        if (!openEffect) return;
        this.open = this.open.filter((effect) => effect !== openEffect);
        this.mine('effect.completed', {
          key: openEffect.key, kind: openEffect.kind,
          result: openEffect.kind === 'agent.spawn'
            ? { outcome: 'exited', exitCode: 0, durationMs: n, usage: n % 5 === 0 ? null : { inputTokens: n, outputTokens: n % 7 === 0 ? null : 2 * n, cacheReadTokens: null, cacheWriteTokens: null, costUsd: n % 3 === 0 ? null : n / 1000 + 0.1, model: 'bench' }, ...this.setback(n) }
            : { ok: true },
        });
        this.mine('event', { cause: openEffect.key, event: { type: 'DONE' } });
        return;
      case 7:
        if (!openEffect) return;
        this.open = this.open.filter((effect) => effect !== openEffect);
        this.mine('effect.interrupted', { key: openEffect.key, kind: openEffect.kind, reason: 'yoke stopped while it ran' });
        return;
      case 8:
        if (openEffect) this.mine('effect.failed', { key: openEffect.key, kind: openEffect.kind, message: 'boom' });
        return;
      case 9:
        if (openEffect) this.mine('effect.started', { key: openEffect.key, kind: openEffect.kind, params: { n }, attempt: 2 });
        return;
      case 10: {
        const id = `hold-${this.records.length}`;
        const ruling = (['pass', 'hold', 'refuse'] as const)[n % 3] as 'pass' | 'hold' | 'refuse';
        this.mine('tool.requested', { id, callId: `call-${id}`, key: openEffect?.key ?? null, agent: 'claude', tool: 'Bash', input: { command: 'ls' }, scope: null });
        this.mine('tool.ruled', { id, ruling, class: n % 4 === 0 ? null : 'network', classes: ['network'], source: { kind: 'table' }, message: 'm', enforced: n % 5 !== 0 });
        if (ruling === 'hold') this.holds.push(id);
        return;
      }
      case 11: {
        const id = this.holds[n % Math.max(1, this.holds.length)];
        if (id === undefined) return;
        const answer = `${id}-a${this.answers.length + 1}`;
        this.answers.push(answer);
        this.mine('tool.answered', { answer, id, callId: `call-${id}`, tool: 'Bash', class: 'network', ruling: n % 2 === 0 ? 'pass' : 'refuse', scope: (['call', 'run', 'workspace'] as const)[n % 3] as 'call', why: null });
        return;
      }
      case 12: {
        const answer = this.answers[n % Math.max(1, this.answers.length)];
        if (answer !== undefined) this.mine('tool.revoked', { answer });
        return;
      }
      case 13: {
        const workspace = (type: RecordDraft['type'], payload: unknown): void => this.add({ type, run: null, machine: null, mv: null, payload } as RecordDraft);
        const restore = this.stash[n % Math.max(1, this.stash.length)];
        if (n % 2 === 0 || restore === undefined) {
          const id = `${this.records.length}`.padStart(64, '0');
          this.stash.push(id);
          workspace('stash.begun', { op: 'push', work: '0'.repeat(16), push: id, restore: null, init: null });
          workspace('stash.pushed', { id, tree: id, mode: 'loop', message: null, via: 'push', files: 1, bytes: 1, entries: [] });
          workspace('stash.cleared', { id });
          workspace('stash.ended', { op: 'push', outcome: 'done' });
        } else {
          workspace('stash.begun', { op: 'pop', work: '0'.repeat(16), push: null, restore, init: null });
          workspace('stash.restored', { id: restore, via: 'pop' });
          workspace('stash.ended', { op: 'pop', outcome: 'done' });
        }
        return;
      }
      case 14: {
        const protection = makeProtection([`src${n}/**`], []);
        const sound = n % 7 !== 0 ? protection : { ...protection, digest: HEX };
        this.add({ type: n % 2 === 0 ? 'protect.baseline' : 'protect.refreshed', run: null, machine: null, mv: null, payload: n % 2 === 0 ? { protection: sound } : { protection: sound, previous: HEX, why: null, changes: [] } } as RecordDraft);
        return;
      }
      case 15:
        this.mine((['run.resumed', 'run.interrupted', 'run.paused', 'checkpoint'] as const)[n % 4] as 'run.resumed', (n % 4 === 0 ? { pid: n } : n % 4 === 1 ? { signal: 'SIGINT' } : n % 4 === 2 ? { reason: 'budget:tokens' } : { upTo: Math.max(1, this.records.length), digest: HEX }) as never);
        return;
      default:
        this.mine('event', { cause: null, event: { type: 'AGENT_RETRY' } });
    }
  }
}

const journals = fc.array(fc.tuple(fc.integer({ min: 0, max: 18 }), fc.nat(1000)), { minLength: 1, maxLength: 120 }).map((steps) => {
  const model = new JournalModel();
  for (const [choice, n] of steps) model.step(choice, n);
  return model.records;
});

/** The run open at record `upTo` (the one a checkpoint there would be of), or null. */
function runOpenAt(records: readonly JournalRecord[], upTo: number): string | null {
  return unfinishedRun(records.slice(0, upTo));
}

const locate = (seq: number): string => `record ${seq}`;

/** The keys of `mine`'s effects started by record `upTo` and not completed by then, in order. */
function openKeys(mine: readonly JournalRecord[], upTo: number): string[] {
  const open = new Set<string>();
  for (const record of mine) {
    if (record.seq > upTo) break;
    if (record.type === 'effect.started') open.add(record.payload.key);
    if (record.type === 'effect.completed') open.delete(record.payload.key);
  }
  return [...open];
}

/** Every projection a command reading from a checkpoint after `upTo` asks, for `run` (and the runs started after it), on `records`. */
function projections(records: readonly JournalRecord[], run: string, upTo: number, base: LedgerBase | null): unknown {
  const later = runStarts(records).filter((started) => started.seq > upTo).map((started) => started.run ?? '');
  const mine = records.filter((record) => record.run === run);
  return {
    stash: foldStashIndex(records, locate),
    protection: protectionHistory(records),
    unfinished: unfinishedRun(records),
    starts: runStarts(records).map((record) => record.seq),
    latest: findRun(records).seq,
    orphans: [...orphanedProcesses(records, run)],
    landings: [...openLandings(records, run)],
    holds: toolHolds(records),
    answers: answerEvents(records),
    standing: journalAnswers(records),
    usage: runUsage(records, run, base),
    rulings: runRulings(records, run, base),
    inFlight: effectInFlight(records, run, base),
    positions: scanPositions(records, run, base),
    held: heldLanes(records, run, base),
    last: mine[mine.length - 1]?.seq,
    // the gate matches an agent call's executed tool calls against every ruling of that call when it ends
    calls: openKeys(mine, upTo).map((key) => callRulings(records, key)),
    others: later.map((other) => [runUsage(records, other, base), runRulings(records, other, base), effectInFlight(records, other, base)]),
  };
}

describe('checkpoint ledger', () => {
  it('every projection on the kept records and the records after a checkpoint equals the projection on every record', () => {
    let cuts = 0;
    fc.assert(fc.property(journals, (records) => {
      for (let upTo = 1; upTo < records.length; upTo += 1) {
        const run = runOpenAt(records, upTo);
        if (run === null) continue;
        // a checkpoint is vouched for by a later record of its run: the records after it hold one
        if (!records.slice(upTo).some((record) => record.run === run)) continue;
        const ledger = advanceLedger(null, records, run, upTo);
        const base: LedgerBase = { upTo, started: { run }, ledger };
        const read = [...ledger.kept, ...records.slice(upTo)];
        expect(projections(read, run, upTo, base)).toEqual(projections(records, run, upTo, null));
        expect(ledger.kept.filter((record) => record.type === 'event' || record.type === 'checkpoint')).toEqual([]);
        cuts += 1;
      }
    }), { numRuns: 150 });
    expect(cuts).toBeGreaterThan(300);
  });

  it('a ledger carried forward from an earlier checkpoint of the run equals one taken from every record', () => {
    fc.assert(fc.property(journals, fc.nat(), (records, pick) => {
      const cuts: Array<{ upTo: number; run: string }> = [];
      for (let upTo = 1; upTo <= records.length; upTo += 1) {
        const run = runOpenAt(records, upTo);
        if (run !== null) cuts.push({ upTo, run });
      }
      const later = cuts[pick % Math.max(1, cuts.length)];
      if (later === undefined) return;
      // every earlier cut of the same run, carried forward cut by cut
      const earlier = cuts.filter((cut) => cut.run === later.run && cut.upTo < later.upTo && (cut.upTo + pick) % 3 === 0);
      let previous: { upTo: number; ledger: CheckpointLedger } | null = null;
      for (const cut of [...earlier, later]) {
        const view: JournalRecord[] = previous === null ? records : [...previous.ledger.kept, ...records.slice(previous.upTo)];
        const base: LedgerBase | null = previous === null ? null : { upTo: previous.upTo, started: { run: later.run }, ledger: previous.ledger };
        previous = { upTo: cut.upTo, ledger: advanceLedger(base, view, later.run, cut.upTo) };
      }
      expect(previous?.ledger).toEqual(advanceLedger(null, records, later.run, later.upTo));
    }), { numRuns: 300 });
  });

  it('refuses to carry another run\'s ledger forward', () => {
    const model = new JournalModel();
    model.step(0, 0);
    model.step(1, 1);
    const ledger = advanceLedger(null, model.records, model.records[0]?.run ?? '', 2);
    expect(() => advanceLedger({ upTo: 2, started: { run: 'another' }, ledger }, model.records, model.records[0]?.run ?? '', 2)).toThrow(/cannot follow/);
  });
});
