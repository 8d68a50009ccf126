// Budgets as call admission (DESIGN §3, issue 3), pure and in-process: the machines folded with a
// scripted world, restarted by folding a prefix of their journal again (kill -9 + `yoke run`).
//
// The property: for random usage sequences (tokens and cost per call, some unknown, some calls cut
// short), random ceilings on every dimension, random operator raises and a random crash point,
// in loop, brute and saga:
//   - no agent call is admitted while a ceiling is breached (by an independent account, support/
//     budget-book.ts), so known spending never exceeds a ceiling by more than one call;
//   - what the machine says was spent equals that account;
//   - a restart from any prefix of the journal ends exactly like the uncrashed run (same events,
//     same hold decision, same spending), and at every hold the refolded prefix holds on the same
//     dimension.
import fc from 'fast-check';
import type { AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { BudgetDimension } from '../../config/types.js';
import { bruteMachine } from '../../machines/lifecycles/brute.js';
import type { MachineEvent } from '../../machines/effect-events.js';
import type { EffectRequest, Usage } from '../../machines/effects.js';
import { loopMachine } from '../../machines/lifecycles/loop.js';
import { sagaMachine } from '../../machines/lifecycles/saga.js';
import type { WorkContext, WorkInput } from '../../machines/work/work-context.js';
import { admissionProblem, bookEvent, bookRequests, openBook, tokensOf, type BudgetBook } from './support/budget-book.js';
import { feed, refold, runOn, type FoldState, type World } from './support/fold-driver.js';
import { makeJudgedInput, makeModeConfig } from './support/judged-input.js';
import { makeAcceptanceResult } from './support/loop-driver.js';

const NUM_RUNS = Number(process.env.YOKE_PROPERTY_RUNS ?? 100);
const T0 = 1_750_000_000_000;
const MACHINES: Record<'loop' | 'brute' | 'saga', AnyStateMachine> = { loop: loopMachine, brute: bruteMachine, saga: sagaMachine };

// ---- the scenario -------------------------------------------------------------------------------

interface Call {
  usage: Usage | null;
  durationMs: number;
  /** the call is cut short (a crash while it ran): AGENT_INTERRUPTED, usage unknown */
  interrupted: boolean;
}

interface Scenario {
  mode: 'loop' | 'brute' | 'saga';
  ceilings: Partial<Record<BudgetDimension, number>>;
  calls: Call[];
  /** the worker says DONE every `doneEvery` iterations (the judge always says FAIL) */
  doneEvery: number;
  /** minutes the clock moves between two readings */
  tickMinutes: number;
  /** when held: raise the blocked ceiling by these amounts, one per hold, then stop */
  raises: number[];
  /** where the crash lands, as a fraction of the uncrashed journal */
  crashAt: number;
}

const cents = (max: number) => fc.integer({ min: 0, max }).map((c) => c / 100);
const usageArb: fc.Arbitrary<Usage | null> = fc.oneof(
  { weight: 1, arbitrary: fc.constant(null) },
  {
    weight: 4,
    arbitrary: fc.record({
      inputTokens: fc.option(fc.integer({ min: 0, max: 400 }), { nil: null, freq: 8 }),
      outputTokens: fc.option(fc.integer({ min: 0, max: 200 }), { nil: null, freq: 8 }),
      cacheReadTokens: fc.constant(null),
      cacheWriteTokens: fc.constant(null),
      costUsd: fc.option(cents(40), { nil: null, freq: 6 }),
      model: fc.constant('m'),
    }),
  },
);
const callArb: fc.Arbitrary<Call> = fc.record({
  usage: usageArb,
  durationMs: fc.integer({ min: 0, max: 90_000 }),
  interrupted: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
});
const ceilingsArb = fc.record(
  {
    'attempts': fc.integer({ min: 1, max: 12 }),
    'tokens': fc.integer({ min: 1, max: 3_000 }),
    'cost-usd': cents(300).filter((c) => c > 0),
    'minutes': fc.integer({ min: 1, max: 20 }),
    'wall-minutes': fc.integer({ min: 1, max: 60 }),
  },
  { requiredKeys: [] },
);
const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  mode: fc.constantFrom('loop', 'brute', 'saga'),
  ceilings: ceilingsArb,
  calls: fc.array(callArb, { minLength: 1, maxLength: 30 }),
  doneEvery: fc.integer({ min: 1, max: 4 }),
  tickMinutes: fc.integer({ min: 0, max: 7 }),
  raises: fc.array(fc.integer({ min: 1, max: 1_000 }), { maxLength: 3 }),
  crashAt: fc.double({ min: 0, max: 1, noNaN: true }),
});

function inputOf(s: Scenario): WorkInput {
  const lines = [
    'max-iterations 12',
    ...(s.mode === 'loop' ? [] : ['max-judge-failures 100']),
    ...(s.mode === 'saga' ? ['max-chunks 3'] : []),
    ...Object.entries(s.ceilings).map(([dimension, value]) => `budget ${dimension} ${value}`),
  ];
  return makeJudgedInput(makeModeConfig(s.mode, lines));
}

const countOf = (journal: readonly MachineEvent[], type: MachineEvent['type']): number => journal.filter((e) => e.type === type).length;

/** A world that is a function of the journal so far, so a restart from any prefix sees the same world. */
function worldOf(s: Scenario): World {
  return {
    answer(request: EffectRequest, journal) {
      switch (request.kind) {
        case 'baseline.capture':
          return { specFiles: {}, tree: 'tree-0' };
        case 'spec.restore':
          return { restored: [], displaced: {} };
        case 'agent.spawn': {
          const n = countOf(journal, 'AGENT_EXITED') + countOf(journal, 'AGENT_INTERRUPTED');
          const call = s.calls[n % s.calls.length] as Call;
          // a crash cuts a call short once; the calls after the scripted ones all complete
          if (call.interrupted && n < s.calls.length) return { type: 'AGENT_INTERRUPTED', reason: 'yoke stopped while it ran' };
          return { outcome: 'exited', exitCode: 0, signal: null, durationMs: call.durationMs, usage: call.usage, transcript: `t${n}.log` };
        }
        case 'notes.read':
          return { firstLine: (countOf(journal, 'NOTES_READ') + 1) % s.doneEvery === 0 ? 'STATUS: DONE' : 'STATUS: IN_PROGRESS' };
        case 'boundary.scan':
          return { changed: [] };
        case 'acceptance.check':
          return makeAcceptanceResult(request.params);
        case 'check.run':
          return { outcome: 'exited', exitCode: 0, signal: null, durationMs: 1, excerpt: '' };
        case 'file.write':
          return { sha256: 'f'.repeat(64) };
        case 'hook.fire':
          return { started: true };
        case 'commit.create':
          return { sha: null };
        case 'story.pass':
          return { sha: null, prdBlob: 'b'.repeat(64) };
        case 'context.read':
          return { block: '', files: [], guard: { 'PROJECT.md': null, 'DECISIONS.md': null } };
        case 'file.inspect': {
          const line = request.params.file === 'verdict.md' ? 'VERDICT: FAIL' : request.params.file === 'saga-notes.md' ? 'STATUS: IN_PROGRESS' : '# the next chunk';
          return { exists: true, firstLine: line, blank: false, stamp: null };
        }
        case 'file.read':
          return { content: 'STATUS: IN_PROGRESS\nnotes\n' };
        case 'notes.reset':
          return { changed: true };
        case 'clock.read':
          return { now: T0 + countOf(journal, 'CLOCK_READ') * s.tickMinutes * 60_000 };
        case 'wait.until':
          return { waitedMs: 0 };
        case 'protect.scan':
          return { files: [] };
        case 'protect.restore':
          return { restored: [] };
        case 'worktree.create':
        case 'candidate.commit':
        case 'candidate.rebase':
        case 'candidate.reject':
        case 'story.land':
        case 'worktree.remove':
          throw new Error(`only parallel stories request ${request.kind}`);
      }
    },
    operator(snapshot: AnyMachineSnapshot, journal) {
      const delta = s.raises[countOf(journal, 'BUDGET_RAISED')];
      const context = snapshot.context as WorkContext;
      const dimension = context.blockedOn;
      if (delta === undefined || dimension === null) return null;
      return { type: 'BUDGET_RAISED', dimension, value: (context.budgets[dimension] ?? 0) + delta };
    },
  };
}

// ---- the independent account ----------------------------------------------------------------------

interface Account {
  book: BudgetBook;
  problems: string[];
  /** the largest known token count / cost / duration of one call */
  maxCall: { tokens: number; cost: number; ms: number };
  workerCalls: number;
}

/** Fold `events` again, keeping the budget book beside the machine and checking every admission. */
function account(machine: AnyStateMachine, input: WorkInput, events: readonly MachineEvent[]): Account {
  let state = refold(machine, input, []);
  const acc: Account = { book: bookRequests(openBook(input.config), state.requests), problems: [], maxCall: { tokens: 0, cost: 0, ms: 0 }, workerCalls: 0 };
  for (const event of events) {
    acc.book = bookEvent(acc.book, event);
    if (event.type === 'AGENT_EXITED') {
      acc.maxCall.tokens = Math.max(acc.maxCall.tokens, tokensOf(event.result.usage) ?? 0);
      acc.maxCall.cost = Math.max(acc.maxCall.cost, event.result.usage?.costUsd ?? 0);
      acc.maxCall.ms = Math.max(acc.maxCall.ms, event.result.durationMs);
    }
    const before = state.requests.length;
    state = feed(machine, state, event);
    for (const r of state.requests.slice(before)) {
      if (r.kind !== 'agent.spawn') continue;
      const problem = admissionProblem(acc.book, r);
      if (problem !== null) acc.problems.push(`after ${state.events.length} events: ${problem}`);
      if (r.params.role === 'worker') acc.workerCalls += 1;
      acc.book = bookRequests(acc.book, [r]);
    }
  }
  return acc;
}

// ---- the property -----------------------------------------------------------------------------------

function summary(state: FoldState, stop: string) {
  const context = state.snapshot.context as WorkContext;
  return { stop, status: state.snapshot.status, value: state.snapshot.value as unknown, blockedOn: context.blockedOn, spent: context.spent, budgets: context.budgets };
}

describe('budgets: call admission', () => {
  it('property: known spending never exceeds a ceiling by more than one call, and restarts from any journal prefix end exactly like the uncrashed run', () => {
    let held = 0;
    let restartsAtHold = 0;
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const machine = MACHINES[s.mode];
        const input = inputOf(s);
        const world = worldOf(s);
        const uncrashed = runOn(machine, refold(machine, input, []), world);
        expect(uncrashed.stop).not.toBe('step-limit');
        const events = uncrashed.state.events;

        // admission, by the independent account
        const acc = account(machine, input, events);
        expect(acc.problems).toEqual([]);
        const ceilings = acc.book.ceilings;
        const context = uncrashed.state.snapshot.context as WorkContext;
        if (ceilings.tokens !== undefined) expect(acc.book.tokens).toBeLessThan(ceilings.tokens + acc.maxCall.tokens + 1);
        if (ceilings['cost-usd'] !== undefined) expect(acc.book.costUsd).toBeLessThan(ceilings['cost-usd'] + acc.maxCall.cost + 1e-9);
        if (ceilings.minutes !== undefined) expect(acc.book.agentMs).toBeLessThan(ceilings.minutes * 60_000 + acc.maxCall.ms + 1);
        if (ceilings.attempts !== undefined) expect(acc.workerCalls).toBeLessThanOrEqual(ceilings.attempts);

        // the machine's own account equals the independent one
        expect({ attempts: context.spent.attempts, tokens: context.spent.tokens, costUsd: context.spent.costUsd, agentMs: context.spent.agentMs })
          .toEqual({ attempts: acc.book.attempts, tokens: acc.book.tokens, costUsd: acc.book.costUsd, agentMs: acc.book.agentMs });
        if (uncrashed.stop === 'held') {
          held += 1;
          expect(context.blockedOn).not.toBeNull();
        }

        // kill -9 after any journal record, then `yoke run`: the same run, the same decisions
        const k = Math.floor(s.crashAt * (events.length + 1));
        const restarted = runOn(machine, refold(machine, input, events.slice(0, k)), world);
        expect(restarted.state.events).toEqual(events);
        expect(restarted.state.requests).toEqual(uncrashed.state.requests);
        expect(summary(restarted.state, restarted.stop)).toEqual(summary(uncrashed.state, uncrashed.stop));

        // at every hold of the uncrashed run, the refolded prefix holds on the same dimension
        let state = refold(machine, input, []);
        for (const [i, event] of events.entries()) {
          state = feed(machine, state, event);
          if (!state.snapshot.hasTag('paused')) continue;
          const again = refold(machine, input, events.slice(0, i + 1));
          restartsAtHold += 1;
          expect(again.snapshot.hasTag('paused')).toBe(true);
          expect((again.snapshot.context as WorkContext).blockedOn).toBe((state.snapshot.context as WorkContext).blockedOn);
          expect(again.pending).toEqual([]);
        }
      }),
      { numRuns: NUM_RUNS },
    );
    console.info(`budget property: ${NUM_RUNS} scenarios, ${held} ended held by a budget, ${restartsAtHold} restarts at a hold checked`);
    expect(held).toBeGreaterThan(NUM_RUNS / 4);
  });
});

// ---- scripted -------------------------------------------------------------------------------------

/** A scenario with defaults: every call reports 100 tokens and $0.10 and takes a minute. */
function scenario(over: Partial<Scenario>): Scenario {
  const usage: Usage = { inputTokens: 60, outputTokens: 40, cacheReadTokens: null, cacheWriteTokens: null, costUsd: 0.1, model: 'm' };
  return { mode: 'loop', ceilings: {}, calls: [{ usage, durationMs: 60_000, interrupted: false }], doneEvery: 1_000, tickMinutes: 1, raises: [], crashAt: 0, ...over };
}

function runScenario(s: Scenario) {
  const machine = MACHINES[s.mode];
  const { state, stop } = runOn(machine, refold(machine, inputOf(s), []), worldOf(s));
  const roles = state.requests.flatMap((r) => (r.kind === 'agent.spawn' ? [r.params.role] : []));
  return { stop, context: state.snapshot.context as WorkContext, roles, output: state.snapshot.status === 'done' ? (state.snapshot.output as { reason: string }) : null };
}

describe('budgets: call admission, scripted', () => {
  it('a tokens ceiling admits calls while spending is below it: the call that crosses it is the last', () => {
    const run = runScenario(scenario({ ceilings: { tokens: 250 } }));
    expect(run.stop).toBe('held');
    expect(run.roles).toEqual(['worker', 'worker', 'worker']);
    expect(run.context.spent.tokens).toBe(300);
    expect(run.context.blockedOn).toBe('tokens');
  });

  it('unknown usage is unknown, never zero: budgets cannot see it and it is counted as unknown', () => {
    const run = runScenario(scenario({ ceilings: { tokens: 250 }, calls: [{ usage: null, durationMs: 1_000, interrupted: false }] }));
    expect(run.stop).toBe('ended');
    expect(run.output?.reason).toBe('max-iterations');
    expect(run.context.spent.tokens).toBe(0);
    expect(run.context.spent.unknownUsage).toBe(12);
  });

  it('wall-minutes: the clock is read before every admission and the run is held once the ceiling is reached', () => {
    const run = runScenario(scenario({ ceilings: { 'wall-minutes': 3 }, tickMinutes: 1 }));
    // readings at 0, 1, 2, 3 minutes: three calls admitted, the fourth reading holds
    expect(run.roles).toEqual(['worker', 'worker', 'worker']);
    expect(run.context.blockedOn).toBe('wall-minutes');
  });

  // BUG (reported): machines/work/work-context.ts budgetBreached() applies `spent.attempts + 1 >
  // budgets.attempts` to judge and scoper admissions too, although they spend no attempt
  // (gate-states.ts gateStates(..., countsAsAttempt = false)). With `budget attempts 2` the second
  // attempt says DONE and the run is held at judgeHold ("2 of 2 spent") instead of being judged.
  it('attempts: the judge of the last attempt is still admitted (a judge call spends no attempt)', () => {
    const run = runScenario(scenario({ mode: 'brute', ceilings: { attempts: 2 }, doneEvery: 2 }));
    expect(run.roles).toEqual(['worker', 'worker', 'judge']);
    expect(run.context.spent.attempts).toBe(2);
  });

  // BUG (reported, minor): an interrupted call's usage is unknown (DESIGN §4, issue 3), but the
  // machine's `spent.unknownUsage` only counts completed calls without usage (setback-states.ts `interrupted`,
  // AGENT_INTERRUPTED handlers), so the hold message under-reports what budgets cannot see.
  it('an interrupted call counts as a call of unknown usage', () => {
    const usage: Usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: null, cacheWriteTokens: null, costUsd: 0, model: 'm' };
    const run = runScenario(scenario({ ceilings: { attempts: 3 }, calls: [{ usage, durationMs: 1, interrupted: true }, { usage, durationMs: 1, interrupted: false }] }));
    expect(run.context.interruptions).toBe(1);
    expect(run.context.spent.unknownUsage).toBe(1);
  });
});
