// Model-based tests of the parallel stories coordinator (DESIGN §10), from the stories machine's own
// graph (xstate/graph), as stories.test.ts does for the serial line.
//
// Each config's graph is explored from sample events that carry their lane (the story), under a
// schedule that keeps the interleavings that matter and no more: a lane waiting on something slow
// (its worker, the integration lane's verdict, a budget) may be answered at any moment, while the
// lanes doing quick bookkeeping go one at a time, lanes before the integration lane. Then (a) every
// state node, transition and guarded alternative of the coordinator's lane 1, lane 2 and integration
// regions is taken by some path, and lanes 3–8 are the same states as lane 1; (b) every path is
// replayed through the pure machine with an independent bookkeeper (support/parallel-ledger.ts) that
// never reads the machine's context, and every §10 invariant holds after every step.
import { describe, expect, it } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import type { MachineEvent } from '../../../machines/effect-events.js';
import { storiesMachine } from '../../../machines/lifecycles/stories.js';
import type { ParallelState } from '../../../machines/parallel/parallel-state.js';
import type { WorkContext, WorkInput } from '../../../machines/work/work-context.js';
import { makeCheckResult } from '../support/loop-driver.js';
import { checkLaneRoutePaths } from '../support/lane-route-ledger.js';
import { checkParallelPaths } from '../support/parallel-ledger.js';
import type { RouteInvariant } from '../support/route-ledger.js';
import { allStateNodes, allTransitions, coverageOf, missing } from '../support/transition-coverage.js';
import { pathNamer, transitionPaths, type GraphModel, type Sample } from '../support/work-graph.js';
import { CONTEXT_RUN, CONTEXT_SAMPLES, ITERATION_SAMPLES, PROTECTED_FILE, T0 } from '../support/work-samples.js';
import { makeProtection } from '../../../machines/protect/protection.js';
import { serializeStories, storiesInput } from '../support/stories-input.js';

const LANDED = (story: string): string => `landed-${story}`;

/** The outcomes of a lane's effects for `story`, each event carrying the lane. */
function laneSamples(story: string, only?: readonly string[]): Record<string, Sample> {
  const lane = { lane: story };
  const all: Record<string, MachineEvent> = {
    WORKTREE_READY: { type: 'WORKTREE_READY', result: { sha: 'base', tree: 'tree-0', path: `.git/yoke/worktrees/${story}` }, ...lane },
    SPEC_RESTORED: { type: 'SPEC_RESTORED', result: { restored: [], displaced: {} }, ...lane },
    CONTEXT_READ: { ...(CONTEXT_SAMPLES['CONTEXT_READ']?.event as MachineEvent), ...lane },
    AGENT_EXITED: { type: 'AGENT_EXITED', result: { outcome: 'exited', exitCode: 0, signal: null, durationMs: 10, usage: null, transcript: 't.log' }, ...lane },
    AGENT_INTERRUPTED: { type: 'AGENT_INTERRUPTED', reason: 'SIGINT', ...lane },
    'AGENT_EXITED(rate-limited)': { ...(ITERATION_SAMPLES['AGENT_EXITED(rate-limited)']?.event as MachineEvent), ...lane },
    'AGENT_EXITED(auth-error)': { ...(ITERATION_SAMPLES['AGENT_EXITED(auth-error)']?.event as MachineEvent), ...lane },
    'AGENT_EXITED(tool-held)': { ...(ITERATION_SAMPLES['AGENT_EXITED(tool-held)']?.event as MachineEvent), ...lane },
    'AGENT_EXITED(tool-ungated)': { ...(ITERATION_SAMPLES['AGENT_EXITED(tool-ungated)']?.event as MachineEvent), ...lane },
    WAITED: { type: 'WAITED', result: { waitedMs: 30_000 }, ...lane },
    'NOTES_READ(DONE)': { type: 'NOTES_READ', result: { firstLine: 'STATUS: DONE' }, ...lane },
    'NOTES_READ(IN_PROGRESS)': { type: 'NOTES_READ', result: { firstLine: 'STATUS: IN_PROGRESS' }, ...lane },
    'BOUNDARY_SCANNED(clean)': { type: 'BOUNDARY_SCANNED', result: { changed: [`src/${story}.ts`] }, ...lane },
    'BOUNDARY_SCANNED(violation)': { type: 'BOUNDARY_SCANNED', result: { changed: [`src/${story}.ts`, 'vendor/lib.js'] }, ...lane },
    'BOUNDARY_SCANNED(shared)': { type: 'BOUNDARY_SCANNED', result: { changed: ['src/shared.ts'] }, ...lane },
    'PROTECT_SCANNED(clean)': { type: 'PROTECT_SCANNED', result: { files: [PROTECTED_FILE] }, ...lane },
    'PROTECT_SCANNED(edited)': { type: 'PROTECT_SCANNED', result: { files: [{ ...PROTECTED_FILE, sha256: 'b'.repeat(64) }] }, ...lane },
    PROTECT_RESTORED: { type: 'PROTECT_RESTORED', result: { restored: [PROTECTED_FILE.path] }, ...lane },
    LANE_INTERRUPTED: { type: 'LANE_INTERRUPTED', reason: `not run: story ${story}'s worktree was made again (it was gone)`, lane: story },
    'CHECK_FINISHED(pass)': { type: 'CHECK_FINISHED', result: makeCheckResult(0, 'ok'), ...lane },
    'CHECK_FINISHED(fail)': { type: 'CHECK_FINISHED', result: makeCheckResult(1, 'failed'), ...lane },
    FILE_WRITTEN: { type: 'FILE_WRITTEN', result: { sha256: 'f'.repeat(64) }, ...lane },
    'FILE_READ(notes)': { type: 'FILE_READ', result: { content: 'STATUS: DONE\nDecision: one line at a time\n' }, ...lane },
    CANDIDATE_COMMITTED: { type: 'CANDIDATE_COMMITTED', result: { sha: `candidate-${story}`, tree: `tree-${story}` }, ...lane },
    'CANDIDATE_REBASED(clean)': { type: 'CANDIDATE_REBASED', result: { ok: true, sha: `rebased-${story}`, tree: `tree-${story}`, files: [], output: '', changed: [`src/${story}.ts`] }, ...lane },
    'CANDIDATE_REBASED(protected)': { type: 'CANDIDATE_REBASED', result: { ok: true, sha: `rebased-${story}`, tree: `tree-${story}`, files: [], output: '', changed: [`src/${story}.ts`, PROTECTED_FILE.path] }, ...lane },
    'CANDIDATE_REBASED(conflict)': { type: 'CANDIDATE_REBASED', result: { ok: false, sha: '', tree: '', files: ['src/shared.ts'], output: 'CONFLICT (content): Merge conflict in src/shared.ts' }, ...lane },
    CLOCK_READ: { type: 'CLOCK_READ', result: { now: T0 }, ...lane },
    STORY_LANDED: { type: 'STORY_LANDED', result: { sha: LANDED(story), prdBlob: 'b'.repeat(64) }, ...lane },
    CANDIDATE_REJECTED: { type: 'CANDIDATE_REJECTED', result: { kept: `refs/yoke/run/rejected/${story}/1` }, ...lane },
    WORKTREE_REMOVED: { type: 'WORKTREE_REMOVED', result: { removed: true }, ...lane },
  };
  const names = only ?? Object.keys(all).filter((name) => !SETBACKS.includes(name));
  return Object.fromEntries(names.map((name) => {
    const event = all[name];
    if (!event) throw new Error(`no lane sample ${name}`);
    // a withdrawn turn effect (the worktree made again on resume) comes only as a resume does: tried as a one-step extension
    return [`${name}@${story}`, name === 'LANE_INTERRUPTED' ? { event, when: () => false } : { event }];
  }));
}

/** What only some models try: a cut-short call, a failing check, notes not DONE, a boundary violation, a conflict, the context read, protected files, a withdrawn turn effect. */
const SETBACKS = [
  'AGENT_EXITED(rate-limited)', 'AGENT_EXITED(auth-error)', 'AGENT_EXITED(tool-held)', 'AGENT_EXITED(tool-ungated)', 'WAITED', 'AGENT_INTERRUPTED', 'CHECK_FINISHED(fail)', 'NOTES_READ(IN_PROGRESS)', 'BOUNDARY_SCANNED(violation)', 'BOUNDARY_SCANNED(shared)',
  'CANDIDATE_REBASED(conflict)', 'CONTEXT_READ', 'PROTECT_SCANNED(clean)', 'PROTECT_SCANNED(edited)', 'PROTECT_RESTORED', 'CANDIDATE_REBASED(protected)', 'LANE_INTERRUPTED',
];
const HAPPY = ['WORKTREE_READY', 'SPEC_RESTORED', 'AGENT_EXITED', 'NOTES_READ(DONE)', 'BOUNDARY_SCANNED(clean)', 'CHECK_FINISHED(pass)', 'FILE_WRITTEN', 'FILE_READ(notes)', 'CANDIDATE_COMMITTED', 'CANDIDATE_REBASED(clean)', 'CLOCK_READ', 'STORY_LANDED', 'CANDIDATE_REJECTED', 'WORKTREE_REMOVED'];
/** HAPPY for lanes that keep protected files: the baseline put back before each call, the scan finding it unchanged. */
const PROTECTED_HAPPY = [...HAPPY, 'PROTECT_SCANNED(clean)', 'PROTECT_RESTORED'];
const lanes = (stories: readonly string[], names: readonly string[] = HAPPY): Record<string, Sample> =>
  Object.fromEntries(stories.flatMap((story) => Object.entries(laneSamples(story, names))));

/** The run's own samples: the baseline, and as one-step extensions (never explored) the resume-time changes. */
const RUN_SAMPLES: Record<string, Sample> = {
  BASELINE_CAPTURED: ITERATION_SAMPLES['BASELINE_CAPTURED'] as Sample,
  'SET_PARALLEL(1)': { event: { type: 'SET_PARALLEL', parallel: 1 }, when: () => false },
  'SET_MAX_ITERATIONS(1)': ITERATION_SAMPLES['SET_MAX_ITERATIONS(1)'] as Sample,
};
/** `yoke run` again after a lane's agent could not authenticate. */
const RETRY: Record<string, Sample> = { AGENT_RETRY: ITERATION_SAMPLES['AGENT_RETRY'] as Sample };

/** A region waits on something slow (a worker, the integration lane, a budget raise, a free lane). */
const WAITING = new Set(['idle', 'working', 'queued', 'held', 'rateLimited', 'agentHold']);
const REGIONS = ['lane1', 'lane2', 'lane3', 'lane4', 'lane5', 'lane6', 'lane7', 'lane8', 'integration'];

/** The region that takes a lane's event: the integration lane while it holds the story, else the story's lane. */
function regionOf(snapshot: AnyMachineSnapshot, event: MachineEvent): string | null {
  const story = (event as { lane?: string }).lane;
  const parallel = (snapshot.context as WorkContext).parallel;
  const value = (snapshot.value as { parallel?: Record<string, string> }).parallel;
  if (story === undefined || !parallel || !value) return null;
  if (parallel.integration?.story === story && value.integration !== 'idle') return 'integration';
  const slot = parallel.slots.findIndex((lane) => lane?.story === story);
  return slot < 0 ? null : `lane${slot + 1}`;
}

/**
 * The schedule: an event for a waiting region may come at any moment; among the regions doing quick
 * bookkeeping only the first (lanes in order, then integration) moves, so their steps do not
 * interleave step by step (which would only multiply paths the coordinator cannot tell apart).
 */
function schedule(snapshot: AnyMachineSnapshot, event: MachineEvent): boolean {
  const region = regionOf(snapshot, event);
  const value = (snapshot.value as { parallel?: Record<string, string> }).parallel;
  if (region === null || !value) return true;
  if (WAITING.has(value[region] ?? '')) return true;
  return REGIONS.find((name) => value[name] !== undefined && !WAITING.has(value[name] ?? '')) === region;
}

/** serializeStories plus the coordinator's state (the scheduling reasons dropped: they follow from the rest). */
function serializeParallel(snapshot: AnyMachineSnapshot): string {
  const parallel = (snapshot.context as WorkContext).parallel;
  const lean = (p: ParallelState) => ({ ...p, slots: p.slots.map((slot) => (slot === null ? null : { ...slot, reason: '', decisionNotes: slot.decisionNotes === null ? null : '…' })) });
  return JSON.stringify([serializeStories(snapshot), parallel ? lean(parallel) : null]);
}

/**
 * A parallel stories run's input with lanes that admit their calls, read the context and wait or hold
 * on a setback; `legacy` as runs journaled before those. `more`: what later runs journal besides
 * (protected files in lanes, a rejected story back to the scheduler, earlier runs' touched files).
 */
function parallelInput(lines: readonly string[], prd: string, legacy = false, more: Partial<WorkInput> = {}): WorkInput {
  const input = storiesInput(lines, prd);
  return legacy ? input : { ...input, laneGates: true, laneSetbacks: true, ...more };
}

/** What a run started today journals besides: protected files kept in lanes, and a rejected story back to the scheduler. */
const PROTECTION = makeProtection(['tests/'], [PROTECTED_FILE]);
/** Every flag a stories run started today journals (a protected one adds protectAll with its baseline). */
const TODAY: Partial<WorkInput> = { laneProtect: true, laneRequeue: true, restoresAfterCalls: true, storyJourneys: true, toolCallProof: true, laneToolGate: true };

const model = (input: WorkInput, ...samples: Array<Record<string, Sample>>): GraphModel => ({
  input, samples: Object.assign({}, RUN_SAMPLES, ...samples) as Record<string, Sample>, serialize: serializeParallel, allow: schedule,
});

const story = (id: string, extra = ''): string => `  - id: ${id}\n    title: Story ${id}\n    acceptance:\n      - text: works\n        check: npm test -- ${id}\n${extra}`;
const prd = (...stories: string[]): string => `stories:\n${stories.join('')}`;

/** Three independent stories. */
const FREE = prd(story('S1'), story('S2'), story('S3'));
/** Two independent stories, and S3 after S1. */
const THREE = prd(story('S1'), story('S2'), story('S3', '    depends-on: [S1]\n'));
const TWO = prd(story('S1'), story('S2'));
/** S1 passed before the run; S2 has no criteria (the scheduler never starts it); S3 is ready; S4's one criterion has no check (with no guard, nothing to run). */
const VAGUE = prd(story('S1', '    passes: true\n'), '  - id: S2\n    title: Vague\n', story('S3'), '  - id: S4\n    title: Story S4\n    acceptance: [works]\n');

const MODELS: Record<string, GraphModel> = {
  /** everything passes: S1 and S2 side by side, S3 once S1 landed; a guard, and each story's own check, in the lane and again on the integrated tree */
  land: model(parallelInput(['parallel 2', 'max-iterations 3', 'max-story-attempts 2', 'guard tests npm test'], THREE), lanes(['S1', 'S2', 'S3'], [...HAPPY, 'LANE_INTERRUPTED'])),
  /** what sends a turn round again or rejects a candidate: notes not DONE, a failing check (in the lane or on the integrated tree), a boundary violation, a conflict, a cut-short call */
  setbacks: model(
    parallelInput(['parallel 2', 'max-iterations 3', 'max-story-attempts 2', 'no-modify vendor/'], TWO),
    lanes(['S1'], [...HAPPY, 'AGENT_INTERRUPTED', 'NOTES_READ(IN_PROGRESS)', 'BOUNDARY_SCANNED(violation)', 'CHECK_FINISHED(fail)', 'CANDIDATE_REBASED(conflict)']),
    lanes(['S2'], [...HAPPY, 'CANDIDATE_REBASED(conflict)']),
  ),
  /** the same setbacks in the second lane (S1 goes cleanly) */
  setbacksLane2: model(
    parallelInput(['parallel 2', 'max-iterations 3', 'max-story-attempts 2', 'no-modify vendor/'], TWO),
    lanes(['S1']),
    lanes(['S2'], [...HAPPY, 'AGENT_INTERRUPTED', 'NOTES_READ(IN_PROGRESS)', 'BOUNDARY_SCANNED(violation)', 'CHECK_FINISHED(fail)']),
  ),
  /** one failed DONE claim blocks a story: with `stop` no lane starts after it, the lane holding S2 finishes */
  blocked: model(
    parallelInput(['parallel 2', 'max-iterations 4', 'max-story-attempts 1'], THREE),
    lanes(['S1'], [...HAPPY, 'CHECK_FINISHED(fail)']), lanes(['S2', 'S3']),
  ),
  /** the same with `skip`: S3 waits on the blocked S1 for ever, S2 still lands */
  skip: model(
    parallelInput(['parallel 2', 'max-iterations 4', 'max-story-attempts 1', 'on-story-blocked skip'], THREE),
    lanes(['S1'], [...HAPPY, 'CHECK_FINISHED(fail)']), lanes(['S2', 'S3']),
  ),
  /** a story that passed before the run, one without criteria (never started), a single lane */
  vague: model(parallelInput(['parallel 1', 'max-iterations 3', 'max-story-attempts 2'], VAGUE), lanes(['S3', 'S4'])),
  /** admission across lanes: one lane call spends the attempts budget, the other lane (and the first one's next turn) waits in `held` until it is raised */
  budget: model(
    parallelInput(['parallel 2', 'max-iterations 3', 'max-story-attempts 2', 'budget attempts 1'], TWO),
    lanes(['S1'], [...HAPPY, 'NOTES_READ(IN_PROGRESS)']), lanes(['S2']), { 'BUDGET_RAISED(attempts 3)': { event: { type: 'BUDGET_RAISED', dimension: 'attempts', value: 3 } } },
  ),
  /** the context layer: each lane reads `.yoke/context/` in its worktree before its worker call; the spec restored after it, as in new runs */
  context: model(
    { ...parallelInput(['parallel 2', 'max-iterations 2', 'max-story-attempts 2'], TWO), contextLayer: { run: CONTEXT_RUN, inject: true }, restoresAfterCalls: true },
    lanes(['S1', 'S2'], [...HAPPY, 'CONTEXT_READ', 'LANE_INTERRUPTED']),
  ),
  /**
   * protected files in lanes, as runs started today keep them: the baseline back in the worktree before
   * each worker call, a worker's edit caught, restored and failing the turn, a withdrawn turn effect,
   * and a candidate that changes a protected file refused at integration
   */
  protect: model(
    parallelInput(['parallel 2', 'max-iterations 2', 'max-story-attempts 2'], TWO, false, { ...TODAY, protection: PROTECTION, protectAll: true }),
    lanes(['S1'], [...PROTECTED_HAPPY, 'PROTECT_SCANNED(edited)', 'CANDIDATE_REBASED(protected)', 'LANE_INTERRUPTED']),
    lanes(['S2'], [...PROTECTED_HAPPY, 'PROTECT_SCANNED(edited)', 'LANE_INTERRUPTED']),
  ),
  /**
   * file overlap: earlier runs' lanes saw S1 and S2 touch the same file, so they never run side by side
   * (S3 runs beside either); S3 touching it too and being rejected goes back to the scheduler, which
   * holds it back while S1 or S2 is in a lane
   */
  clash: model(
    parallelInput(['parallel 2', 'max-iterations 4', 'max-story-attempts 2'], FREE, false, { ...TODAY, touchedBefore: { S1: ['src/shared.ts'], S2: ['src/shared.ts'] } }),
    lanes(['S1', 'S2']), lanes(['S3'], [...HAPPY, 'BOUNDARY_SCANNED(shared)', 'CANDIDATE_REBASED(conflict)']),
  ),
  /** a run journaled before lanes were gated: no admission, no context read */
  legacy: model(parallelInput(['parallel 2', 'max-iterations 2', 'max-story-attempts 2'], TWO, true), lanes(['S1', 'S2'], [...HAPPY, 'AGENT_EXITED(rate-limited)'])),
  /** a lane's call is rate-limited (waits, then the same turn again) or cannot authenticate (holds until `yoke run` retries); the other lane goes on */
  agentSetbacks: model(
    parallelInput(['parallel 2', 'max-iterations 2', 'max-story-attempts 2'], TWO),
    lanes(['S1'], [...HAPPY, 'AGENT_EXITED(rate-limited)', 'WAITED', 'AGENT_EXITED(auth-error)']), lanes(['S2'], [...HAPPY, 'AGENT_EXITED(rate-limited)', 'WAITED', 'AGENT_EXITED(auth-error)']), RETRY,
  ),
  /** lanes go through the tool-call gate: a held tool call holds its lane (Claude's session resumed after `yoke run`), so do tool calls that went around the gate; the other lane goes on */
  toolHolds: model(
    parallelInput(['parallel 2', 'max-iterations 2', 'max-story-attempts 2'], TWO, false, TODAY),
    lanes(['S1', 'S2'], [...HAPPY, 'AGENT_EXITED(tool-held)', 'AGENT_EXITED(tool-ungated)']), RETRY,
  ),
};


/** The coordinator's regions these configs use (lanes 1 and 2, and integration), and the states around it. */
const COORDINATED = (id: string): boolean => id.includes('stories.parallel') && !/\.lane[3-8]\b/.test(id);
/** lane N's ids as lane 1's (they are built by the same laneStates(i)). */
const asLane1 = (id: string): string => id.replace(/\.lane[2-8]\b/g, '.lane1');

// Exploring every interleaving is CPU-bound: on a loaded 2-core machine a test takes minutes, not seconds.
describe('parallel stories coordinator graph', { timeout: 300_000 }, () => {
  const explored = Object.fromEntries(Object.entries(MODELS).map(([name, m]) => [name, transitionPaths(storiesMachine, m)]));
  const coverage = Object.fromEntries(Object.entries(MODELS).map(([name, m]) => [name, coverageOf(m.input, explored[name]?.paths ?? [], storiesMachine)]));
  const union = (key: 'nodes' | 'types' | 'candidates') => new Set(Object.values(coverage).flatMap((c) => [...c[key]]));

  it('the bounded graphs are finite and reach every ending', () => {
    console.info(`parallel graph: ${Object.entries(explored).map(([name, t]) => `${name} ${t.vertices} vertices / ${t.paths.length} transition paths`).join('; ')}`);
    const ends = new Set(Object.values(explored).flatMap((t) => [...t.ends]));
    expect([...ends].sort()).toEqual(['active', 'max-iterations', 'stories-blocked', 'stories-done', 'story-blocked']);
    expect([...(explored.land?.ends ?? [])]).toContain('stories-done');
    expect([...(explored.blocked?.ends ?? [])]).toContain('story-blocked');
  });

  it('(a) every state node, transition and guarded alternative of lanes 1–2 and the integration lane is taken by some path; lanes 3–8 are lane 1\'s states', () => {
    const nodes = allStateNodes(storiesMachine.root).map((n) => n.id).filter(COORDINATED);
    const all = allTransitions(storiesMachine);
    const types = all.types.filter(COORDINATED);
    const candidates = all.candidates.filter(COORDINATED);
    console.info(`coverage: ${union('nodes').size} state nodes, ${union('types').size} transitions, ${union('candidates').size} alternatives taken; of the coordinator's lanes 1–2 and integration: ${nodes.length} / ${types.length} / ${candidates.length}`);
    expect(missing(nodes, union('nodes')), 'state nodes no path reaches').toEqual([]);
    expect(missing(types, union('types')), 'transitions no path takes').toEqual([]);
    expect(missing(candidates, union('candidates')), 'transition alternatives no path takes').toEqual([]);
    // the other lanes: the same nodes and alternatives as lane 1, region for region
    const lane1 = all.candidates.filter((id) => /\.lane1\b/.test(id)).sort();
    for (let n = 3; n <= 8; n += 1) {
      const other = all.candidates.filter((id) => new RegExp(`\\.lane${n}\\b`).test(id)).map(asLane1).sort();
      expect(other, `lane${n}`).toEqual(lane1);
    }
    // SET_PARALLEL (the root's resume-time change of N) is taken too
    expect([...union('types')].some((id) => id.endsWith(' SET_PARALLEL'))).toBe(true);
  });

  it('(b) the §10 invariants hold after every step of every transition path of every config', () => {
    for (const [name, m] of Object.entries(MODELS)) {
      const { failures, folded } = checkParallelPaths(storiesMachine, m.input, explored[name]?.paths ?? [], pathNamer(m.samples));
      console.info(`${name}: ${folded} distinct steps checked`);
      expect(failures.slice(0, 3), name).toEqual([]);
    }
  });

  it('the invariants have teeth: they catch a coordinator that skips a story\'s checks, ignores a dependency, runs more lanes than asked, ignores a rate limit, forgets earlier runs\' overlaps or lets a lane weaken a protected file', () => {
    // each machine is given other rules than the user wrote (the oracle reads the user's)
    const caught = (m: GraphModel, change: (input: WorkInput) => WorkInput): string => {
      const input = change(m.input);
      return checkParallelPaths(storiesMachine, input, transitionPaths(storiesMachine, { ...m, input }).paths, pathNamer(m.samples), m.input).failures[0] ?? '';
    };
    const land = MODELS.land as GraphModel;
    const withoutChecks = (input: WorkInput): WorkInput => ({ ...input, stories: input.stories?.map((s) => ({ ...s, acceptance: s.acceptance?.map((c) => ({ text: c.text })) ?? null })) });
    expect(caught(land, withoutChecks)).toMatch(/^§10 a candidate is committed only after/);
    const noDependencies = (input: WorkInput): WorkInput => ({ ...input, stories: input.stories?.map((s) => ({ ...s, dependsOn: [] })) });
    expect(caught(land, noDependencies)).toMatch(/^§10 a lane starts only a ready story/);
    const wider = (input: WorkInput): WorkInput => ({ ...input, config: { ...input.config, parallel: 3 } });
    expect(caught(MODELS.land as GraphModel, (input) => wider(noDependencies(input)))).toMatch(/^§10 (at most N stories hold a lane|a lane starts only a ready story)/);
    // a coordinator that reads a rate-limited call's notes as if it had worked (as runs journaled before lane setbacks do)
    const noSetbacks = (input: WorkInput): WorkInput => ({ ...input, laneSetbacks: undefined });
    expect(caught(MODELS.agentSetbacks as GraphModel, noSetbacks)).toMatch(/^§4 in a lane too/);
    // a coordinator whose lanes read a held call's notes as if it had worked (as runs journaled before laneToolGate do)
    const ungated = (input: WorkInput): WorkInput => ({ ...input, laneToolGate: undefined });
    expect(caught(MODELS.toolHolds as GraphModel, ungated)).toMatch(/^§13 in a lane too/);
    // a coordinator that forgets what earlier runs' lanes touched starts S1 and S2 side by side
    const forgetful = (input: WorkInput): WorkInput => ({ ...input, touchedBefore: undefined });
    expect(caught(MODELS.clash as GraphModel, forgetful)).toMatch(/^§10 two stories whose last attempts touched the same file are never started side by side/);
    // lanes that ignore protected files (as runs journaled before laneProtect did)
    const unprotected = (input: WorkInput): WorkInput => ({ ...input, laneProtect: undefined });
    expect(caught(MODELS.protect as GraphModel, unprotected)).toMatch(/^§16 in a lane too/);
  });
});

/** Two profiles a tier apart (the light one with a model, the strong one without), climbed by `routing escalate`. */
const ESCALATE = ['profile fast tier light model haiku cmd ./fast.sh', 'profile deep tier strong cmd ./deep.sh', 'routing escalate'];
/** A lane's worker that crashed: its turn's gates then say nothing of the model. */
const CRASHED = (story: string): Record<string, Sample> => ({
  [`AGENT_EXITED(crashed)@${story}`]: { event: { type: 'AGENT_EXITED', result: { outcome: 'exited', exitCode: 1, signal: null, durationMs: 10, usage: null, transcript: 't.log', classification: 'crashed' }, lane: story } },
});
/** serializeParallel plus each story's rung, so the graph tells rungs apart. */
const withRoutes = (snapshot: AnyMachineSnapshot): string => JSON.stringify([serializeParallel(snapshot), (snapshot.context as WorkContext).routes ?? null]);
const ROUTED_INPUT = parallelInput(['parallel 2', 'max-iterations 3', 'max-story-attempts 3', ...ESCALATE], TWO, false, { ...TODAY, sequenceRouting: true, laneRouting: true });
const routed = (...samples: Array<Record<string, Sample>>): GraphModel => ({ ...model(ROUTED_INPUT, ...samples), serialize: withRoutes });
/**
 * Each setback of S1 in a model of its own, so the graph cannot merge a path that should climb with
 * one that should not (a rejection by a failing check with a conflict, a crashed call with a plain
 * one); S2 goes cleanly beside it.
 */
const ROUTED: Record<string, GraphModel> = {
  /** S1's check fails in its lane or on the integrated tree */
  gates: routed(lanes(['S1'], [...HAPPY, 'CHECK_FINISHED(fail)']), lanes(['S2'])),
  /** S1's candidate conflicts at integration */
  conflict: routed(lanes(['S1'], [...HAPPY, 'CANDIDATE_REBASED(conflict)']), lanes(['S2'])),
  /** S1's worker always crashes, then its check fails or passes */
  crashing: routed(lanes(['S1'], [...HAPPY.filter((name) => name !== 'AGENT_EXITED'), 'CHECK_FINISHED(fail)']), CRASHED('S1'), lanes(['S2'])),
};

describe('routing escalate in parallel lanes (DESIGN §10 with §15)', () => {
  const explored = Object.fromEntries(Object.entries(ROUTED).map(([name, m]) => [name, transitionPaths(storiesMachine, m)]));

  it('a lane whose turn failed its gates, or whose candidate a gate rejected, climbs for its story only; a conflict or a crash does not climb; every lane call journals why', () => {
    const seen: Record<string, string[]> = {};
    for (const [name, m] of Object.entries(ROUTED)) {
      const t = explored[name];
      const checked = checkLaneRoutePaths(storiesMachine, m.input, t?.paths ?? [], pathNamer(m.samples));
      seen[name] = [...checked.seen].sort();
      console.info(`lane routing ${name}: ${t?.vertices} vertices / ${t?.paths.length} paths, ${checked.folded} distinct steps checked; lane calls ran as ${seen[name]?.join('; ')}`);
      expect(checked.failures.slice(0, 1), name).toEqual([]);
      // S2 never leaves the light rung, whatever S1 did
      expect(seen[name]?.filter((entry) => entry.startsWith('story:S2 deep')), name).toEqual([]);
    }
    // S1 climbs after a failing check (in its lane, or on the integrated tree) while S2 stays on fast beside it; never after a conflict or a crash
    expect(seen.gates).toEqual(expect.arrayContaining(['story:S1 fast', 'story:S1 deep', 'story:S2 fast', 'story:S2 fast beside story:S1 after 1 failure(s)']));
    expect(seen.conflict).toEqual(['story:S1 fast', 'story:S2 fast']);
    expect(seen.crashing).toEqual(['story:S1 fast', 'story:S2 fast']);
  });

  it('the oracle has teeth: it catches lanes that stay on the run-wide rung, as runs journaled before laneRouting did', () => {
    const gates = ROUTED.gates as GraphModel;
    const legacy = { ...gates.input, laneRouting: undefined };
    const paths = transitionPaths(storiesMachine, { ...gates, input: legacy }).paths;
    const caught = (only: RouteInvariant[]): string => checkLaneRoutePaths(storiesMachine, legacy, paths, pathNamer(gates.samples), gates.input, new Set(only)).failures[0] ?? '';
    expect(caught(['rung'])).toMatch(/^§15 escalate: [^\n]*: story:S1 failed 1 time\(s\), so deep, but the call runs as fast/);
    expect(caught(['reason'])).toMatch(/^§15 every escalate call journals why[^\n]*: undefined/);
  });
});
