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
import { initialTransition, transition } from 'xstate';
import { getShortestPaths, getSimplePaths } from 'xstate/graph';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../config/types.js';
import { COMPLETION_EVENT, type MachineEvent } from '../../machines/effect-events.js';
import { effectSchemas, type EffectRequest, type EffectResult } from '../../machines/effects.js';
import { checkPassed, gatesDone } from '../../machines/guard-report.js';
import { loopMachine, notesSayDone, type LoopInput } from '../../machines/loop.js';
import { makeCheckResult, makeConfig, makeInput, requestsOf, requestsOfKind, type LoopSnapshot } from './support/loop-driver.js';
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

const PERIODIC_EVERY = 2;

function makeAgentExit(): EffectResult<'agent.spawn'> {
  return { outcome: 'exited', exitCode: 0, signal: null, durationMs: 10, usage: null, transcript: 't.log' };
}

/** One sample per outcome that can change what the loop does next, named for path listings. */
const SAMPLES: Record<string, MachineEvent> = {
  'BASELINE_CAPTURED': { type: 'BASELINE_CAPTURED', result: { specFiles: { 'plan.md': 'sha-plan', 'protocol.md': null }, tree: 'tree-0' } },
  'SPEC_RESTORED': { type: 'SPEC_RESTORED', result: { restored: ['plan.md'], displaced: {} } },
  'AGENT_EXITED': { type: 'AGENT_EXITED', result: makeAgentExit() },
  'AGENT_INTERRUPTED': { type: 'AGENT_INTERRUPTED', reason: 'SIGINT' },
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
const SAMPLE_NAMES = new Map(Object.entries(SAMPLES).map(([name, event]) => [event, name]));
const ALL_EVENTS = Object.values(SAMPLES);
const WITHOUT_OPERATOR = ALL_EVENTS.filter((event) => event.type !== 'SET_MAX_ITERATIONS');

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
  });
}

function traversal(input: LoopInput, events: readonly MachineEvent[]) {
  return {
    input,
    events: (snapshot: LoopSnapshot) => events.filter((event) => snapshot.can(event)),
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
  kind: 'guard' | 'periodic' | 'guard-after';
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

const INVARIANTS: Record<string, Invariant> = {
  'at most one outstanding request awaits an event; an active machine always awaits one (never stuck), an ended one none': (l) => {
    if (l.awaited.length > 1) return `${l.awaited.length} awaited requests: ${l.awaited.map((r) => r.kind).join(', ')}`;
    if (l.snapshot.status === 'active' && l.awaited.length !== 1) return `active in ${JSON.stringify(l.snapshot.value)} with no request to wait for`;
    if (l.snapshot.status !== 'active' && l.awaited.length !== 0) return `ended with ${l.awaited[0]?.kind} still outstanding`;
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
  for (const r of emitted) {
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
  if (event.type === 'SET_MAX_ITERATIONS') {
    ledger.maxIterations = event.max;
    return null;
  }
  const index = ledger.awaited.findIndex((r) => (event.type === 'AGENT_INTERRUPTED' ? r.kind === 'agent.spawn' : COMPLETION_EVENT[r.kind] === event.type));
  const answered = ledger.awaited[index];
  if (answered === undefined) return `${event.type} answers no outstanding request (${ledger.awaited.map((r) => r.kind).join(', ')})`;
  ledger.awaited.splice(index, 1);
  switch (event.type) {
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
  const mismatch = answer(ledger, event);
  if (mismatch !== null) failures.push(`${mismatch}: ${describePath(path)}`);
  const [next, actions] = transition(ledger.machine, ledger.snapshot, event);
  ledger.snapshot = next;
  const emitted = requestsOf(actions);
  take(ledger, emitted);
  check(ledger, emitted, path, failures);
  return ledger;
}

/** Replay every path with the ledger; the failures found (empty when every invariant held). */
function checkInvariants(input: LoopInput, paths: readonly EventPath[], machine: LoopMachine = loopMachine): { failures: string[]; folded: number } {
  const failures: string[] = [];
  const folded = replayAll(paths, startLedger(machine, input, failures), (ledger, path) => stepLedger(ledger, path, failures));
  return { failures, folded };
}

// ---- tests ----------------------------------------------------------------------------------

describe('loop machine graph', () => {
  const modelInput = makeInput(makeConfig(MODEL_CONF));
  const guardlessInput = makeInput(makeConfig(GUARDLESS_CONF));
  let model: TransitionPaths;
  let guardless: TransitionPaths;
  let histories: { paths: EventPath[]; endedAfterInterruption: number };
  let modelCoverage: Coverage;

  beforeAll(() => {
    model = transitionPaths(modelInput, ALL_EVENTS);
    guardless = transitionPaths(guardlessInput, ALL_EVENTS);
    histories = simplePaths(modelInput, WITHOUT_OPERATOR);
    modelCoverage = coverageOf(modelInput, model.paths);
  });

  it('the bounded graph is finite and reaches both endings', () => {
    console.info(
      `loop graph: model ${model.vertices} vertices / ${model.paths.length} transition paths; ` +
        `guardless ${guardless.vertices} vertices / ${guardless.paths.length} transition paths; ${histories.paths.length} histories`,
    );
    expect(model.vertices).toBeGreaterThan(100);
    expect(histories.paths.length).toBeGreaterThan(model.vertices);
    expect([...model.ends].sort()).toEqual(['active', 'done', 'max-iterations']);
  });

  it('(a) every state node and every (state node, event type) transition is taken by some path of the model', () => {
    const nodes = allStateNodes().map((n) => n.id);
    const { types } = allTransitions();
    console.info(`coverage: ${modelCoverage.nodes.size}/${nodes.length} state nodes, ${modelCoverage.types.size}/${types.length} (node, event type) transitions`);
    expect(missing(nodes, modelCoverage.nodes), 'state nodes no path reaches').toEqual([]);
    expect(missing(types, modelCoverage.types), 'transitions no path takes').toEqual([]);
    expect(nodes).toHaveLength(14);
  });

  it('(a) every guarded alternative of every transition is taken by some path (model ∪ guardless config)', () => {
    const { candidates } = allTransitions();
    const union = new Set([...modelCoverage.candidates, ...coverageOf(guardlessInput, guardless.paths).candidates]);
    console.info(`coverage: ${union.size}/${candidates.length} transition alternatives (${modelCoverage.candidates.size} from the model alone)`);
    expect(missing(candidates, union), 'transition alternatives no path takes').toEqual([]);
    // the model's one blind spot, and why the guardless config is here: with a guard configured,
    // every iteration plans at least one check
    expect(missing(candidates, modelCoverage.candidates)).toEqual(['loop.routingChecks always #1 [noChecksPlanned] → loop.reporting']);
  });

  it('(b) invariants hold after every step of every transition path (model and guardless configs)', () => {
    const onModel = checkInvariants(modelInput, model.paths);
    const onGuardless = checkInvariants(guardlessInput, guardless.paths);
    expect(onModel.failures.slice(0, 5)).toEqual([]);
    expect(onGuardless.failures.slice(0, 5)).toEqual([]);
  });

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
});
