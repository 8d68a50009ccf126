// Model-based tests of the loop machine, from its own graph (xstate/graph).
//
// The graph is explored with one sample event per interesting outcome of every effect, then:
//  (a) coverage: every state node and every transition of loopMachine is taken by some path;
//  (b) every path is replayed through the pure machine (`initialTransition` / `transition`) with
//      an independent bookkeeper of requests and facts, and the invariants below hold after each
//      step.
// Two path families are replayed: "transition paths" (the shortest path to every graph vertex,
// extended by every event enabled there: all-transitions coverage, SET_MAX_ITERATIONS included)
// and "histories" (every simple path of the graph without SET_MAX_ITERATIONS: every distinct
// combination of sample outcomes across the iterations that the bounded graph tells apart).
// A third config has budgets (tokens, cost, wall-minutes): its graph reads the clock, holds the
// run at call admission and leaves the hold on BUDGET_RAISED, so the admission states are covered
// and the budget invariants (support/budget-book.ts) checked on every step.
import { assign, initialTransition, transition } from 'xstate';
import { getShortestPaths, getSimplePaths } from 'xstate/graph';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../config/types.js';
import { COMPLETION_EVENT, type MachineEvent } from '../../machines/effect-events.js';
import { effectSchemas, type EffectRequest, type EffectResult } from '../../machines/effects.js';
import { checkPassed, gatesDone } from '../../machines/work/guard-report.js';
import { loopMachine, notesSayDone, type LoopInput } from '../../machines/lifecycles/loop.js';
import { budgetBreached } from '../../machines/work/work-context.js';
import { makeProtection } from '../../machines/protect/protection.js';
import { PROTECTED_FILE } from './support/work-samples.js';
import { utcDate } from '../../machines/context/decision-entry.js';
import { makeCheckResult, makeConfig, makeInput, requestsOf, requestsOfKind, type LoopSnapshot } from './support/loop-driver.js';
import { admissionProblem, bookEvent, bookRequests, breachFor, describeBook, heldRole, openBook, type BudgetBook } from './support/budget-book.js';
import { replayAll } from './support/replay-paths.js';
import { allStateNodes, allTransitions, coverageOf, missing, type Coverage } from './support/transition-coverage.js';

// ---- model ----------------------------------------------------------------------------------

/** The config of the model: 1 guard, 1 periodic every 2 with 1 guard-after, commit each, max 3. */
const MODEL_CONF = [
  'max-iterations 3',
  'no-modify vendor/',
  'guard tests npm test',
  'periodic audit 2 npm audit',
  'guard-after audit audit-clean ./audit-ok.sh',
  'commit each',
  'hook run-start echo run-start',
  'hook iteration-start echo iteration-start',
  'hook iteration-end echo iteration-end',
  'hook done echo done',
  'hook bailout echo bailout',
];
/** Without guards, odd iterations plan no check at all (the only way to reach `noChecksPlanned`). */
const GUARDLESS_CONF = ['max-iterations 3', 'no-modify vendor/', 'periodic audit 2 npm audit', 'commit each'];

/**
 * Budgets: one call that reports usage (60 tokens, $0.60) spends both the tokens and the cost
 * ceiling; a clock reading 2 minutes after the first one breaks the wall-minutes ceiling.
 */
const BUDGET_CONF = ['max-iterations 2', 'commit done', 'budget tokens 50', 'budget cost-usd 0.5', 'budget wall-minutes 1'];

/** The context layer (DESIGN §9): the run's success commits with a DECISIONS.md entry, decided from the clock, the notes and the plan. */
const CONTEXT_CONF = ['max-iterations 2', 'guard tests npm test', 'commit done'];
const CONTEXT_RUN = '01JCONTEXT7Q4Z3H8K2M5N6P9R';
/** DESIGN §16: one protected test file, a guard (skipped when the worker edits the file), no commits. */
const PROTECTED_CONF = ['max-iterations 2', 'guard tests npm test', 'protect tests/', 'commit off'];

const PERIODIC_EVERY = 2;
const T0 = 1_750_000_000_000;

function makeAgentExit(): EffectResult<'agent.spawn'> {
  return { outcome: 'exited', exitCode: 0, signal: null, durationMs: 10, usage: null, transcript: 't.log' };
}

/** One sample per outcome that can change what the loop does next, named for path listings. */
const SAMPLES: Record<string, MachineEvent> = {
  'BASELINE_CAPTURED': { type: 'BASELINE_CAPTURED', result: { specFiles: { 'plan.md': 'sha-plan', 'protocol.md': null }, tree: 'tree-0' } },
  'SPEC_RESTORED': { type: 'SPEC_RESTORED', result: { restored: ['plan.md'], displaced: {} } },
  'AGENT_EXITED': { type: 'AGENT_EXITED', result: makeAgentExit() },
  'AGENT_INTERRUPTED': { type: 'AGENT_INTERRUPTED', reason: 'SIGINT' },
  'AGENT_EXITED(rate-limited)': { type: 'AGENT_EXITED', result: { ...makeAgentExit(), exitCode: 1, classification: 'rate-limited', retryAfterMs: null, endedAt: T0 } },
  'AGENT_EXITED(auth-error)': { type: 'AGENT_EXITED', result: { ...makeAgentExit(), exitCode: 1, classification: 'auth-error', detail: 'HTTP 401', endedAt: T0 } },
  // DESIGN §13: a call whose tool call the gate held (Claude's defer: its session resumes after the answer)
  'AGENT_EXITED(tool-held)': { type: 'AGENT_EXITED', result: { ...makeAgentExit(), classification: 'tool-held', detail: '1 tool call(s) held for the operator (abcd1234)', toolHold: { id: 'abcd1234', session: 'session-1' }, endedAt: T0 } },
  // DESIGN §13: a call whose CLI ran tool calls the gate never ruled on: the run holds for the operator
  'AGENT_EXITED(tool-ungated)': { type: 'AGENT_EXITED', result: { ...makeAgentExit(), classification: 'tool-ungated', detail: "claude ran 1 tool call yoke's gate never ruled on (Bash rm -r keep)", toolCalls: [], endedAt: T0 } },
  'WAITED': { type: 'WAITED', result: { waitedMs: 30_000 } },
  'AGENT_RETRY': { type: 'AGENT_RETRY' },
  'NOTES_READ(DONE)': { type: 'NOTES_READ', result: { firstLine: 'STATUS: DONE' } },
  'NOTES_READ(IN_PROGRESS)': { type: 'NOTES_READ', result: { firstLine: 'STATUS: IN_PROGRESS' } },
  'BOUNDARY_SCANNED(clean)': { type: 'BOUNDARY_SCANNED', result: { changed: ['src/app.ts'] } },
  'BOUNDARY_SCANNED(violation)': { type: 'BOUNDARY_SCANNED', result: { changed: ['src/app.ts', 'vendor/lib.js'] } },
  'CHECK_FINISHED(pass)': { type: 'CHECK_FINISHED', result: makeCheckResult(0, 'ok') },
  'CHECK_FINISHED(fail)': { type: 'CHECK_FINISHED', result: makeCheckResult(1, 'failed') },
  'FILE_WRITTEN': { type: 'FILE_WRITTEN', result: { sha256: 'f'.repeat(64) } },
  'COMMITTED': { type: 'COMMITTED', result: { sha: 'c0ffee' } },
  'SET_MAX_ITERATIONS(1)': { type: 'SET_MAX_ITERATIONS', max: 1 },
  'SET_MAX_ITERATIONS(4)': { type: 'SET_MAX_ITERATIONS', max: 4 },
};
/** The budget config's extra samples: a call that reports usage, two clock readings, three raises. */
const BUDGET_SAMPLES: Record<string, MachineEvent> = {
  'AGENT_EXITED(60 tokens, $0.60)': { type: 'AGENT_EXITED', result: { ...makeAgentExit(), usage: { inputTokens: 40, outputTokens: 20, cacheReadTokens: null, cacheWriteTokens: null, costUsd: 0.6, model: 'm' } } },
  'CLOCK_READ(T0)': { type: 'CLOCK_READ', result: { now: T0 } },
  'CLOCK_READ(T0+2m)': { type: 'CLOCK_READ', result: { now: T0 + 120_000 } },
  'BUDGET_RAISED(tokens 55)': { type: 'BUDGET_RAISED', dimension: 'tokens', value: 55 },
  'BUDGET_RAISED(tokens 1000)': { type: 'BUDGET_RAISED', dimension: 'tokens', value: 1000 },
  'BUDGET_RAISED(cost-usd 50)': { type: 'BUDGET_RAISED', dimension: 'cost-usd', value: 50 },
  'BUDGET_RAISED(wall-minutes 10)': { type: 'BUDGET_RAISED', dimension: 'wall-minutes', value: 10 },
};
/** The context config's extra samples: the clock reading that dates the entry, and a file read that serves as notes and plan. */
const CONTEXT_SAMPLES: Record<string, MachineEvent> = {
  'CLOCK_READ(T0)': BUDGET_SAMPLES['CLOCK_READ(T0)'] as MachineEvent,
  'FILE_READ(notes/plan)': { type: 'FILE_READ', result: { content: '# Greeting endpoint\nDecision: answer in plain text\n' } },
  'CONTEXT_READ': { type: 'CONTEXT_READ', result: { block: '', files: [{ name: 'PROJECT.md', bytes: null, injected: 0 }, { name: 'DECISIONS.md', bytes: null, injected: 0 }, { name: 'KNOWLEDGE.md', bytes: null, injected: 0 }], guard: { 'PROJECT.md': null, 'DECISIONS.md': null } } },
};
/** DESIGN §16: the protected config's samples: its one test file as it was, edited, restored; and a refresh. */
const PROTECT_EVENTS: Record<string, MachineEvent> = {
  'PROTECT_SCANNED(clean)': { type: 'PROTECT_SCANNED', result: { files: [PROTECTED_FILE] } },
  'PROTECT_SCANNED(edited)': { type: 'PROTECT_SCANNED', result: { files: [{ ...PROTECTED_FILE, sha256: 'b'.repeat(64) }] } },
  'PROTECT_RESTORED': { type: 'PROTECT_RESTORED', result: { restored: [PROTECTED_FILE.path] } },
  // the same baseline again: the graph takes the root handler without growing
  'PROTECTION_REFRESHED': { type: 'PROTECTION_REFRESHED', protection: makeProtection(['tests/'], [PROTECTED_FILE]) },
};
const SAMPLE_NAMES = new Map([...Object.entries(SAMPLES), ...Object.entries(BUDGET_SAMPLES), ...Object.entries(CONTEXT_SAMPLES), ...Object.entries(PROTECT_EVENTS)].map(([name, event]) => [event, name]));
const ALL_EVENTS = Object.values(SAMPLES);
const WITHOUT_OPERATOR = ALL_EVENTS.filter((event) => event.type !== 'SET_MAX_ITERATIONS');
/** The budget model: no boundary rules and no operator cap changes, so the graph stays about budgets. */
/** The context model: one clean outcome per effect besides DONE or not and a passing or failing guard, so the graph stays about the decision. */
const PLAIN_EVENT_NAMES = ['BASELINE_CAPTURED', 'SPEC_RESTORED', 'AGENT_EXITED', 'NOTES_READ(DONE)', 'NOTES_READ(IN_PROGRESS)', 'BOUNDARY_SCANNED(clean)', 'CHECK_FINISHED(pass)', 'CHECK_FINISHED(fail)', 'FILE_WRITTEN', 'COMMITTED'];
const CONTEXT_EVENTS = [...PLAIN_EVENT_NAMES.map((name) => SAMPLES[name] as MachineEvent), ...Object.values(CONTEXT_SAMPLES)];
/**
 * The protected model (DESIGN §16): the same plain outcomes plus the protected file as it was, edited
 * and restored, and a refresh; no setbacks, violations or cap changes (the model config covers those),
 * so the graph stays about protected files and stays small.
 */
const PROTECTED_EVENTS = [...PLAIN_EVENT_NAMES.map((name) => SAMPLES[name] as MachineEvent), ...Object.values(PROTECT_EVENTS)];
const BUDGET_EVENTS = [...ALL_EVENTS.filter((e) => e.type !== 'SET_MAX_ITERATIONS' && e.type !== 'BOUNDARY_SCANNED' && e !== SAMPLES['AGENT_EXITED(tool-held)']), SAMPLES['BOUNDARY_SCANNED(clean)'] as MachineEvent, ...Object.values(BUDGET_SAMPLES)];

/**
 * Graph identity of a loop snapshot. Context is part of state identity, and the raw context holds
 * values that never change what the machine does next but make every state unique (agentCalls,
 * changed paths, excerpts) or grow without bound (`interruptions`: AGENT_INTERRUPTED loops back to
 * `restoring`). So keep exactly what the guards and the requests depend on: the state, the
 * iteration and the cap (`lastIteration`, prompts), whether the notes say DONE and the boundary
 * broke (`succeeded`, `boundaryBroken`), how many checks ran and whether every gating one passed
 * (`checking`'s loop, `wantsCommit`), plus "was an agent call ever interrupted" so histories can
 * go through an interruption once and carry on to the end (a simple path never revisits a vertex).
 */
function serializeLoopState(snapshot: LoopSnapshot): string {
  const c = snapshot.context;
  return JSON.stringify({
    state: snapshot.value,
    iteration: c.iteration,
    max: c.maxIterations,
    done: notesSayDone(c.notesFirstLine),
    broken: c.violations.length > 0,
    checks: c.checks.length,
    passing: c.checks.filter(gatesDone).every(checkPassed),
    interrupted: c.interruptions > 0,
    // With budgets, what admission reads: the ceilings, known spending and the clock. All bounded:
    // spending grows only with completed calls, ceilings and readings come from finite samples.
    // (Attempts are left out: no model has an attempts ceiling, and interruptions would make them unbounded.)
    ...(Object.keys(c.budgets).length === 0 ? {} : { budgets: c.budgets, tokens: c.spent.tokens, cost: c.spent.costUsd, clock: [c.runStartedAt, c.now, c.clockFresh] }),
  });
}

/**
 * The events the graph explores from a snapshot. Operator raises are explored only where they
 * matter, in a hold (accepted everywhere, elsewhere they would only multiply vertices); the
 * transition paths still try them at every vertex, as one-step extensions.
 */
function enabledEvents(snapshot: LoopSnapshot, events: readonly MachineEvent[]): MachineEvent[] {
  return events.filter((event) => snapshot.can(event) && (event.type !== 'BUDGET_RAISED' || snapshot.hasTag('paused')));
}

function traversal(input: LoopInput, events: readonly MachineEvent[]) {
  return {
    input,
    events: (snapshot: LoopSnapshot) => enabledEvents(snapshot, events),
    stopWhen: (snapshot: LoopSnapshot) => snapshot.status !== 'active',
    serializeState: (snapshot: LoopSnapshot) => serializeLoopState(snapshot),
    limit: 20_000,
  };
}

/** A path as the events that drive it (the `xstate.init` pseudo-step dropped). */
type EventPath = MachineEvent[];

function eventsOf(steps: ReadonlyArray<{ event: { type: string } }>): EventPath {
  return steps.map((step) => step.event).filter((event): event is MachineEvent => event.type !== 'xstate.init');
}

/** The loop machine, or a test-made variant of it (to show the invariants catch a broken machine). */
type LoopMachine = typeof loopMachine;

interface TransitionPaths {
  vertices: number;
  paths: EventPath[];
  /** how each vertex's state ended: a final output reason, or 'active' */
  ends: Set<string>;
}

/** The shortest path to every vertex, and that path extended by every event enabled at its end. */
function transitionPaths(input: LoopInput, events: readonly MachineEvent[], machine: LoopMachine = loopMachine): TransitionPaths {
  const shortest = getShortestPaths(machine, traversal(input, events));
  const paths: EventPath[] = [];
  for (const path of shortest) {
    const head = eventsOf(path.steps);
    paths.push(head);
    if (path.state.status !== 'active') continue;
    for (const event of events) if (path.state.can(event)) paths.push([...head, event]);
  }
  const ends = new Set(shortest.map((path) => (path.state.status === 'done' ? path.state.output.reason : 'active')));
  return { vertices: shortest.length, paths, ends };
}

/** Every simple path, and how many of them end the run after an interrupted agent call. */
function simplePaths(input: LoopInput, events: readonly MachineEvent[]): { paths: EventPath[]; endedAfterInterruption: number } {
  const simple = getSimplePaths(loopMachine, traversal(input, events));
  const paths = simple.map((path) => eventsOf(path.steps));
  const endedAfterInterruption = simple.filter((path, i) => path.state.status === 'done' && paths[i]?.some((e) => e.type === 'AGENT_INTERRUPTED')).length;
  return { paths, endedAfterInterruption };
}

function describePath(path: EventPath): string {
  return path.map((event) => SAMPLE_NAMES.get(event) ?? event.type).join(' → ');
}

// ---- the bookkeeper: an oracle that never reads the machine's context ----------------------------

interface CheckFact {
  kind: 'guard' | 'periodic' | 'guard-after' | 'accept';
  name: string;
  passed: boolean;
}

/** What happened so far on one replayed path, as seen from requests and events only. */
interface Ledger {
  machine: LoopMachine;
  config: Config;
  snapshot: LoopSnapshot;
  /** requests answered by an event, not yet answered */
  awaited: EffectRequest[];
  /** iteration of the latest agent call */
  iteration: number;
  /** the cap: the config's, then the last SET_MAX_ITERATIONS */
  maxIterations: number;
  /** guard-results.md writes answered */
  reports: number;
  lastNotes: string | null | undefined;
  /** facts of the iteration in progress (reset by the first agent call of the next one) */
  violation: boolean;
  checks: CheckFact[];
  violatedIterations: Set<number>;
  /** a new iteration started although the previous one had DONE and passing checks */
  continuedAfterSuccess: boolean;
  /** budgets: the independent account, what was wrong with the last admitted call, the last event */
  book: BudgetBook;
  /** the book as it was when this step's requests were emitted (before an admitted call was booked) */
  bookBefore: BudgetBook;
  admission: string | null;
  lastEvent: MachineEvent | null;
  wasPaused: boolean;
  /** how the last agent call ended, as its adapter classified it */
  lastAgentExit: string | null;
  /** the context layer's run id from the input (null without the layer), and the last file read's content */
  contextRun: string | null;
  lastRead: string | null;
  /** spec 1.1 in runs that restore after calls: a worker exited and no spec.restore followed yet; notes read before that */
  restoresAfterCalls: boolean;
  restoreOwed: boolean;
  readUnrestored: boolean;
}

type Invariant = (ledger: Ledger, emitted: readonly EffectRequest[]) => string | null;

/** The oracle for 1.4: with no `allow` rules, a path breaks the boundary iff a no-modify prefix covers it. */
function breaksBoundary(config: Config, changed: readonly string[]): boolean {
  return changed.some((path) => config.noModify.some((prefix) => path.startsWith(prefix)));
}

/** DONE in the notes, a clean boundary, and every configured guard ran and every gating check passed. */
function iterationSucceeded(l: Ledger): boolean {
  const guardsRan = l.config.guards.every((g) => l.checks.some((c) => c.kind === 'guard' && c.name === g.name));
  const gatingPassed = l.checks.filter((c) => c.kind !== 'periodic').every((c) => c.passed);
  return notesSayDone(l.lastNotes ?? null) && !l.violation && guardsRan && gatingPassed;
}

/** The agent exits that hold the run until `yoke run` journals AGENT_RETRY: credentials, a tool call held for the operator, or tool calls that went around the gate (DESIGN §13). */
const HOLDING_EXITS = ['auth-error', 'tool-held', 'tool-ungated'];

const INVARIANTS: Record<string, Invariant> = {
  'tool hold: the agent call after a held tool call resumes the held session, and no other call resumes one': (_l, emitted) => {
    for (const request of emitted) {
      if (request.kind !== 'agent.spawn') continue;
      const resume = (request.params as { resume?: string }).resume;
      const expected = _l.lastAgentExit === 'tool-held' ? 'session-1' : undefined;
      if (resume !== expected) return `agent.spawn with resume ${String(resume)} after a call that ended ${_l.lastAgentExit ?? '(none)'}`;
    }
    return null;
  },
  'at most one outstanding request awaits an event; an active machine awaits one (never stuck) unless held by a budget, a held or ended one none': (l) => {
    if (l.awaited.length > 1) return `${l.awaited.length} awaited requests: ${l.awaited.map((r) => r.kind).join(', ')}`;
    const held = l.snapshot.status === 'active' && l.snapshot.hasTag('paused');
    if (l.snapshot.status === 'active' && !held && l.awaited.length !== 1) return `active in ${JSON.stringify(l.snapshot.value)} with no request to wait for`;
    if (held && l.awaited.length !== 0) return `held in ${JSON.stringify(l.snapshot.value)} with ${l.awaited[0]?.kind} still outstanding`;
    if (l.snapshot.status !== 'active' && l.awaited.length !== 0) return `ended with ${l.awaited[0]?.kind} still outstanding`;
    return null;
  },
  'budgets: an agent.spawn is never requested while a ceiling is breached (call admission, with a fresh clock under wall-minutes)': (l) => l.admission,
  'budgets: the run is held only when the next call would break a ceiling': (l) => {
    if (l.snapshot.status !== 'active' || !l.snapshot.hasTag('paused')) return null;
    if (JSON.stringify(l.snapshot.value).includes('AgentHold')) {
      return HOLDING_EXITS.includes(l.lastAgentExit ?? '') ? null : `held in ${JSON.stringify(l.snapshot.value)} although the last agent call neither failed to authenticate nor had a tool call held`;
    }
    const role = heldRole(l.snapshot.value);
    if (role === null) return `held in ${JSON.stringify(l.snapshot.value)}, which is no admission hold`;
    return breachFor(l.book, role) === null ? `held in ${JSON.stringify(l.snapshot.value)} with nothing breached (${describeBook(l.book)})` : null;
  },
  'budgets: BUDGET_RAISED leaves the hold for a call only when the breach is gone, and then always (under wall-minutes, via a fresh clock reading)': (l) => {
    if (!l.wasPaused || l.lastEvent?.type !== 'BUDGET_RAISED') return null;
    // A raise does not concern a run held for its agent's credentials: it stays held.
    if (JSON.stringify(l.snapshot.value).includes('AgentHold')) return null;
    const role = heldRole(l.snapshot.value) ?? l.book.pendingRole ?? 'worker';
    const stillHeld = l.snapshot.status === 'active' && l.snapshot.hasTag('paused');
    const rereadsClock = JSON.stringify(l.snapshot.value).includes('Clock');
    if (rereadsClock && l.book.ceilings['wall-minutes'] === undefined) return `went to ${JSON.stringify(l.snapshot.value)} without a wall-minutes budget`;
    const breach = breachFor(l.bookBefore, role, { ignoreWall: rereadsClock });
    if (!stillHeld && !rereadsClock && breach !== null) return `left the hold for ${JSON.stringify(l.snapshot.value)} with the ${breach} budget still spent (${describeBook(l.book)})`;
    if (stillHeld && breachFor(l.book, role, { ignoreWall: true }) === null) return `still held after the breach is gone (${describeBook(l.book)})`;
    return null;
  },
  'every request’s params pass its zod schema': (_l, emitted) => {
    for (const r of emitted) {
      const parsed = effectSchemas[r.kind].params.safeParse(r.params);
      if (!parsed.success) return `${r.kind} params ${JSON.stringify(r.params)}: ${parsed.error.message}`;
    }
    return null;
  },
  '1.4 no check.run in an iteration whose boundary scan found a violation': (l, emitted) => {
    const bad = emitted.find((r) => r.kind === 'check.run' && l.violatedIterations.has(r.params.iteration));
    return bad ? `check.run ${JSON.stringify(bad.params)} after a boundary violation` : null;
  },
  'periodics and their guard-afters run only on iterations divisible by `every`': (_l, emitted) => {
    const bad = requestsOfKind(emitted, 'check.run').find((r) => r.params.kind !== 'guard' && r.params.iteration % PERIODIC_EVERY !== 0);
    return bad ? `${bad.params.kind} ${bad.params.name} ran in iteration ${bad.params.iteration}` : null;
  },
  'an agent call belongs to the iteration after the last reported one (interruptions do not count)': (l, emitted) => {
    const call = emitted.find((r) => r.kind === 'agent.spawn');
    return call && call.params.iteration !== l.reports + 1 ? `agent.spawn for iteration ${call.params.iteration} after ${l.reports} reports` : null;
  },
  '1.2 exit 0 only if the last notes said DONE and every gating check of that iteration ran and passed': (l) => {
    if (l.snapshot.status !== 'done' || l.snapshot.output.exitCode !== 0) return null;
    return iterationSucceeded(l) ? null : `exit 0 with notes ${JSON.stringify(l.lastNotes)}, violation ${l.violation}, checks ${JSON.stringify(l.checks)}`;
  },
  '1.2 an iteration with DONE and passing checks ends the run with exit 0': (l) => {
    if (l.continuedAfterSuccess) return `iteration ${l.iteration} started after a successful iteration`;
    if (l.snapshot.status === 'done' && l.snapshot.output.exitCode !== 0 && iterationSucceeded(l)) return `exit ${l.snapshot.output.exitCode} after a successful iteration`;
    return null;
  },
  'a run ends with exit 1 only at the iteration cap': (l) => {
    if (l.snapshot.status !== 'done' || l.snapshot.output.exitCode !== 1) return null;
    const out = l.snapshot.output;
    return out.reason === 'max-iterations' && out.iterations >= l.maxIterations ? null : `exit 1 ${JSON.stringify(out)}`;
  },
  'DESIGN §9 a commit carries a DECISIONS.md entry exactly when the layer exists and it is the success\'s, named after the run and dated by the journaled clock': (l, emitted) => {
    const commit = requestsOfKind(emitted, 'commit.create')[0];
    if (!commit) return null;
    const success = iterationSucceeded(l);
    const entry = commit.params.decision?.entry;
    if (l.contextRun === null || !success) return entry === undefined ? null : `a decision entry without ${l.contextRun === null ? 'the layer' : 'success'}: ${JSON.stringify(entry)}`;
    if (entry === undefined) return 'the successful commit carries no decision entry';
    const expected = `## ${utcDate(l.book.clock ?? -1)} — ${l.contextRun.slice(0, 8)}: Greeting endpoint\n${l.lastRead?.includes('Decision:') ? 'answer in plain text' : 'Greeting endpoint'}\n`;
    return entry === expected ? null : `entry ${JSON.stringify(entry)}, expected ${JSON.stringify(expected)}`;
  },
  'spec 1.1 (runs that restore after calls): after the worker exits, the spec is restored before its notes are read': (l) =>
    l.readUnrestored ? 'notes.read requested after the worker exited with no spec.restore in between' : null,
  '1.3 an ended run wrote guard-results.md once per iteration': (l) => {
    if (l.snapshot.status !== 'done') return null;
    return l.reports === l.snapshot.output.iterations ? null : `${l.reports} reports for ${l.snapshot.output.iterations} iterations`;
  },
};

function check(ledger: Ledger, emitted: readonly EffectRequest[], path: EventPath, failures: string[]): void {
  for (const [name, invariant] of Object.entries(INVARIANTS)) {
    const problem = invariant(ledger, emitted);
    if (problem !== null) failures.push(`${name}\n  ${problem}\n  after step ${path.length}: ${describePath(path)}`);
  }
}

function take(ledger: Ledger, emitted: readonly EffectRequest[]): void {
  ledger.admission = null;
  ledger.bookBefore = ledger.book;
  for (const r of emitted) {
    if (r.kind === 'agent.spawn') ledger.admission = admissionProblem(ledger.book, r);
  }
  ledger.book = bookRequests(ledger.book, emitted);
  for (const r of emitted) {
    if (r.kind === 'spec.restore') ledger.restoreOwed = false;
    if (r.kind === 'notes.read' && ledger.restoreOwed) ledger.readUnrestored = true;
    if (COMPLETION_EVENT[r.kind] !== null) ledger.awaited.push(r);
    if (r.kind === 'agent.spawn' && r.params.iteration !== ledger.iteration) {
      if (ledger.iteration > 0 && iterationSucceeded(ledger)) ledger.continuedAfterSuccess = true;
      ledger.iteration = r.params.iteration;
      ledger.violation = false;
      ledger.checks = [];
    }
  }
}

/** Match an event to the request it answers and record the fact it carries. */
function answer(ledger: Ledger, event: MachineEvent): string | null {
  ledger.book = bookEvent(ledger.book, event);
  if (event.type === 'SET_MAX_ITERATIONS') {
    ledger.maxIterations = event.max;
    return null;
  }
  if (event.type === 'BUDGET_RAISED' || event.type === 'PROTECTION_REFRESHED') return null;
  if (event.type === 'AGENT_RETRY') return HOLDING_EXITS.includes(ledger.lastAgentExit ?? '') ? null : 'AGENT_RETRY accepted although no agent call failed to authenticate or had a tool call held';
  const index = ledger.awaited.findIndex((r) => (event.type === 'AGENT_INTERRUPTED' ? r.kind === 'agent.spawn' : COMPLETION_EVENT[r.kind] === event.type));
  const answered = ledger.awaited[index];
  if (answered === undefined) return `${event.type} answers no outstanding request (${ledger.awaited.map((r) => r.kind).join(', ')})`;
  ledger.awaited.splice(index, 1);
  switch (event.type) {
    case 'AGENT_EXITED':
      ledger.lastAgentExit = event.result.classification ?? 'ok';
      if (ledger.restoresAfterCalls && !['rate-limited', ...HOLDING_EXITS].includes(ledger.lastAgentExit)) ledger.restoreOwed = true;
      break;
    case 'NOTES_READ':
      ledger.lastNotes = event.result.firstLine;
      break;
    case 'BOUNDARY_SCANNED':
      ledger.violation = breaksBoundary(ledger.config, event.result.changed);
      if (ledger.violation) ledger.violatedIterations.add(ledger.iteration);
      break;
    case 'CHECK_FINISHED':
      if (answered.kind === 'check.run') {
        ledger.checks.push({ kind: answered.params.kind, name: answered.params.name, passed: event.result.outcome === 'exited' && event.result.exitCode === 0 });
      }
      break;
    case 'FILE_WRITTEN':
      if (answered.kind === 'file.write' && answered.params.file === 'guard-results.md') ledger.reports += 1;
      break;
    case 'FILE_READ':
      ledger.lastRead = event.result.content;
      break;
    default:
      break;
  }
  return null;
}

/** The ledger after `initialTransition`, invariants checked. */
function startLedger(machine: LoopMachine, input: LoopInput, failures: string[]): Ledger {
  const [initial, actions] = initialTransition(machine, input);
  const ledger: Ledger = {
    machine, config: input.config, snapshot: initial, awaited: [], iteration: 0, maxIterations: input.config.maxIterations, reports: 0, lastNotes: undefined,
    violation: false, checks: [], violatedIterations: new Set(), continuedAfterSuccess: false,
    book: openBook(input.config), bookBefore: openBook(input.config), admission: null, lastEvent: null, wasPaused: false,
    lastAgentExit: null, contextRun: input.contextLayer?.run ?? null, lastRead: null,
    restoresAfterCalls: input.restoresAfterCalls === true, restoreOwed: false, readUnrestored: false,
  };
  const emitted = requestsOf(actions);
  take(ledger, emitted);
  check(ledger, emitted, [], failures);
  return ledger;
}

/** Feed the last event of `path` through the pure machine: a new ledger, invariants checked. */
function stepLedger(before: Ledger, path: EventPath, failures: string[]): Ledger {
  const event = path.at(-1) as MachineEvent;
  const ledger: Ledger = { ...before, awaited: [...before.awaited], checks: [...before.checks], violatedIterations: new Set(before.violatedIterations) };
  if (ledger.snapshot.status !== 'active') {
    failures.push(`${event.type} after the machine ended: ${describePath(path)}`);
    return ledger;
  }
  ledger.lastEvent = event;
  ledger.wasPaused = ledger.snapshot.hasTag('paused');
  const mismatch = answer(ledger, event);
  if (mismatch !== null) failures.push(`${mismatch}: ${describePath(path)}`);
  const [next, actions] = transition(ledger.machine, ledger.snapshot, event);
  ledger.snapshot = next;
  const emitted = requestsOf(actions);
  take(ledger, emitted);
  check(ledger, emitted, path, failures);
  return ledger;
}

/** Replay every path with the ledger; the failures found (empty when every invariant held). `firstOnly` stops folding at the first. */
function checkInvariants(input: LoopInput, paths: readonly EventPath[], machine: LoopMachine = loopMachine, firstOnly = false): { failures: string[]; folded: number } {
  const failures: string[] = [];
  const folded = replayAll(paths, startLedger(machine, input, failures), (ledger, path) => (firstOnly && failures.length > 0 ? ledger : stepLedger(ledger, path, failures)));
  return { failures, folded };
}

// ---- tests ----------------------------------------------------------------------------------

describe('loop machine graph', () => {
  const modelInput = makeInput(makeConfig(MODEL_CONF));
  const guardlessInput = makeInput(makeConfig(GUARDLESS_CONF));
  const budgetInput = makeInput(makeConfig(BUDGET_CONF));
  // the context config is also a run that restores the spec after every agent call (new runs do)
  const contextInput = makeInput(makeConfig(CONTEXT_CONF), { contextLayer: { run: CONTEXT_RUN, inject: true }, restoresAfterCalls: true });
  const protectedInput = makeInput(makeConfig(PROTECTED_CONF), { protection: makeProtection(['tests/'], [PROTECTED_FILE]) });
  let protectedPaths: TransitionPaths;
  let protectedCoverage: Coverage;
  let model: TransitionPaths;
  let context: TransitionPaths;
  let contextCoverage: Coverage;
  let guardless: TransitionPaths;
  let budget: TransitionPaths;
  let histories: { paths: EventPath[]; endedAfterInterruption: number };
  let modelCoverage: Coverage;
  let budgetCoverage: Coverage;

  beforeAll(() => {
    model = transitionPaths(modelInput, ALL_EVENTS);
    guardless = transitionPaths(guardlessInput, ALL_EVENTS);
    budget = transitionPaths(budgetInput, BUDGET_EVENTS);
    context = transitionPaths(contextInput, CONTEXT_EVENTS);
    contextCoverage = coverageOf(contextInput, context.paths);
    histories = simplePaths(modelInput, WITHOUT_OPERATOR);
    modelCoverage = coverageOf(modelInput, model.paths);
    budgetCoverage = coverageOf(budgetInput, budget.paths);
    protectedPaths = transitionPaths(protectedInput, PROTECTED_EVENTS);
    protectedCoverage = coverageOf(protectedInput, protectedPaths.paths);
  }, 600_000);

  it('the bounded graph is finite and reaches both endings', () => {
    console.info(
      `loop graph: model ${model.vertices} vertices / ${model.paths.length} transition paths; ` +
        `guardless ${guardless.vertices} vertices / ${guardless.paths.length} transition paths; ` +
        `budget ${budget.vertices} vertices / ${budget.paths.length} transition paths; protected ${protectedPaths.vertices} vertices / ${protectedPaths.paths.length} transition paths; ${histories.paths.length} histories`,
    );
    expect(model.vertices).toBeGreaterThan(100);
    expect(histories.paths.length).toBeGreaterThan(model.vertices);
    expect([...model.ends].sort()).toEqual(['active', 'done', 'max-iterations']);
    expect([...budget.ends].sort()).toEqual(['active', 'done', 'max-iterations']);
    expect([...protectedPaths.ends].sort()).toEqual(['active', 'done', 'max-iterations']);
  });

  it('(a) every state node and every (state node, event type) transition is taken by some path (model ∪ budget ∪ context config)', () => {
    const nodes = allStateNodes().map((n) => n.id);
    const { types } = allTransitions();
    const seenNodes = new Set([...modelCoverage.nodes, ...budgetCoverage.nodes, ...contextCoverage.nodes, ...protectedCoverage.nodes]);
    const seenTypes = new Set([...modelCoverage.types, ...budgetCoverage.types, ...contextCoverage.types, ...protectedCoverage.types]);
    console.info(`coverage: ${seenNodes.size}/${nodes.length} state nodes, ${seenTypes.size}/${types.length} (node, event type) transitions`);
    expect(missing(nodes, seenNodes), 'state nodes no path reaches').toEqual([]);
    expect(missing(types, seenTypes), 'transitions no path takes').toEqual([]);
    expect(nodes).toHaveLength(27);
    // the budget states are what the budget config is for; the context read and the decision states what the
    // context config is for, the protection states the protected config's
    expect(missing(nodes, modelCoverage.nodes).sort()).toEqual(['loop.decisionClock', 'loop.decisionNotes', 'loop.decisionPlan', 'loop.protecting', 'loop.restoringAfterWorker', 'loop.unprotecting', 'loop.workerClock', 'loop.workerContext', 'loop.workerHold']);
  });

  it('(a) every guarded alternative of every transition is taken by some path (model ∪ guardless ∪ budget ∪ context config)', () => {
    const { candidates } = allTransitions();
    const union = new Set([...modelCoverage.candidates, ...coverageOf(guardlessInput, guardless.paths).candidates, ...budgetCoverage.candidates, ...contextCoverage.candidates, ...protectedCoverage.candidates]);
    console.info(`coverage: ${union.size}/${candidates.length} transition alternatives (${modelCoverage.candidates.size} from the model alone)`);
    expect(missing(candidates, union), 'transition alternatives no path takes').toEqual([]);
    // the model's blind spots, and why the other configs are here: with a guard configured, every
    // iteration plans at least one check; without budgets, admission never reads the clock or holds
    const blindSpots = missing(candidates, modelCoverage.candidates);
    expect(blindSpots).toContain('loop.routingChecks always #1 [inline guard] → loop.reporting');
    expect(blindSpots.filter((key) => !/BUDGET_RAISED|workerClock|workerHold|workerContext|routingChecks always #1 |decision|settling always #0 |PROTECT|protecting|restoringAfterWorker/.test(key))).toEqual([]);
    expect(blindSpots.filter((key) => /workerGate always/.test(key))).toHaveLength(3);
  });

  it('(b) invariants hold after every step of every transition path (model, guardless and budget configs)', () => {
    const onModel = checkInvariants(modelInput, model.paths);
    const onGuardless = checkInvariants(guardlessInput, guardless.paths);
    const onBudget = checkInvariants(budgetInput, budget.paths);
    const onContext = checkInvariants(contextInput, context.paths);
    expect(onContext.failures.slice(0, 5)).toEqual([]);
    expect(checkInvariants(protectedInput, protectedPaths.paths).failures.slice(0, 3)).toEqual([]);
    expect(onModel.failures.slice(0, 5)).toEqual([]);
    expect(onGuardless.failures.slice(0, 5)).toEqual([]);
    expect(onBudget.failures.slice(0, 5)).toEqual([]);
  });

  // The budget config's simple paths are far too many to enumerate; random histories of budgeted
  // runs (crashes and restarts included) are the fast-check property in budget.test.ts.
  it('(b) invariants hold after every step of every history (every simple path without operator events)', () => {
    const { failures, folded } = checkInvariants(modelInput, histories.paths);
    const steps = histories.paths.reduce((n, path) => n + path.length, 0);
    console.info(`histories: ${histories.paths.length} paths, ${steps} path steps checked (${folded} distinct prefixes folded); ${histories.endedAfterInterruption} end the run after an interruption`);
    expect(failures.slice(0, 5)).toEqual([]);
    expect(histories.endedAfterInterruption).toBeGreaterThan(0);
  });

  it('the invariants have teeth: they catch a machine that runs guards past a violation, ends on DONE alone, or never ends on success', () => {
    const ignoresBoundary = loopMachine.provide({ guards: { boundaryBroken: () => false } });
    const trustsNotes = loopMachine.provide({ guards: { succeeded: ({ context }) => notesSayDone(context.notesFirstLine) } });
    const neverSucceeds = loopMachine.provide({ guards: { succeeded: () => false } });
    const first = (machine: LoopMachine): string => checkInvariants(modelInput, transitionPaths(modelInput, WITHOUT_OPERATOR, machine).paths, machine).failures[0] ?? '';
    expect(first(ignoresBoundary)).toMatch(/^1\.4 no check\.run in an iteration whose boundary scan found a violation/);
    expect(first(trustsNotes)).toMatch(/^1\.2 exit 0 only if/);
    expect(first(neverSucceeds)).toMatch(/^1\.2 an iteration with DONE and passing checks ends the run/);
  });

  it('the budget invariants have teeth: they catch a machine that admits a call past a ceiling, holds for nothing, ignores a raise, or forgets spending on one', () => {
    const ignoresSpending = loopMachine.provide({
      guards: { overBudget: ({ context }) => budgetBreached({ ...context, budgets: { ...context.budgets, 'tokens': undefined, 'cost-usd': undefined } }) !== null },
    });
    const holdsAlways = loopMachine.provide({ guards: { overBudget: ({ context }) => context.spent.attempts > 0 } });
    const ignoresRaises = loopMachine.provide({ actions: { raiseBudget: () => undefined } });
    const forgetsOnRaise = loopMachine.provide({
      actions: {
        raiseBudget: assign(({ context, event }) => event.type !== 'BUDGET_RAISED' ? {} : ({
          budgets: { ...context.budgets, [event.dimension]: event.value }, blockedOn: null, clockFresh: false, spent: { ...context.spent, tokens: 0, costUsd: 0 },
        })),
      },
    });
    const first = (machine: LoopMachine): string => checkInvariants(budgetInput, transitionPaths(budgetInput, BUDGET_EVENTS, machine).paths, machine, true).failures[0] ?? '';
    expect(first(ignoresSpending)).toMatch(/^budgets: an agent\.spawn is never requested while a ceiling is breached/);
    expect(first(holdsAlways)).toMatch(/^budgets: the run is held only when the next call would break a ceiling/);
    expect(first(ignoresRaises)).toMatch(/^budgets: BUDGET_RAISED leaves the hold for a call only when the breach is gone, and then always[^\n]*\n {2}still held after the breach is gone/);
    // it leaves the hold to re-read the clock (allowed), then admits a call the ledger says is over budget
    expect(first(forgetsOnRaise)).toMatch(/^budgets: an agent\.spawn is never requested while a ceiling is breached/);
  });
});

