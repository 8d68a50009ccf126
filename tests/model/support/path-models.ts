// The graph models whose paths are executed for real: per machine, a few small configs and the
// sample events explored from them (the samples of tests/machines/support/work-samples.ts, plus
// the goal's second failure). Sized for execution: every path of every model runs in a real
// workspace, so the configs keep caps at 1–3, each sample set holds what its config must tell
// apart, and the graph identity drops what only multiplies paths. Together the models of a machine
// take every state node and every guarded transition (the coverage tests say so).
//
// Adding a sample event (e.g. a rate-limited agent exit for a new gate state) is one line in the
// model's `samples` below: the world realizes it from the event alone (support/world-plan.ts), as
// long as its event type is one the scripted world already produces.
import type { AnyMachineSnapshot } from 'xstate';
import { parseConfig } from '../../../config/parse-config.js';
import type { WorkContext, WorkInput } from '../../../machines/work/work-context.js';
import { makeCheckResult, makeConfig, makeInput } from '../../machines/support/loop-driver.js';
import { makeJudgedInput, makeModeConfig } from '../../machines/support/judged-input.js';
import { serializeWork, type Sample } from '../../machines/support/work-graph.js';
import type { ExecutionModel } from './run-path-models.js';
import { ACCEPTANCE_SAMPLES, BUDGET_SAMPLES, CONTEXT_RUN, CONTEXT_SAMPLES, ITERATION_SAMPLES, SAGA_SAMPLES, SETBACK_SAMPLES, VERDICT_SAMPLES, VIOLATION_SAMPLE } from '../../machines/support/work-samples.js';
import { LIFECYCLE_REGISTRY } from '../../../machines/lifecycles/registry.js';

const ALL = { ...ITERATION_SAMPLES, ...ACCEPTANCE_SAMPLES, ...VIOLATION_SAMPLE, ...VERDICT_SAMPLES, ...SAGA_SAMPLES, ...BUDGET_SAMPLES, ...SETBACK_SAMPLES, ...CONTEXT_SAMPLES };

/** The named samples (throws on a name no sample has). */
function pick(...names: string[]): Record<string, Sample> {
  return Object.fromEntries(names.map((name) => {
    const sample = (ALL as Record<string, Sample>)[name] ?? GOAL_SAMPLES[name];
    if (!sample) throw new Error(`no sample ${name}`);
    return [name, sample];
  }));
}

/** Goal: a second failure, so "the same failure three times" and "a different failure" both exist. */
const GOAL_SAMPLES: Record<string, Sample> = {
  'CHECK_FINISHED(fail, other)': { event: { type: 'CHECK_FINISHED', result: makeCheckResult(1, 'another failure') } },
  // an agent that goes quiet past `idle-timeout` (tried as a one-step extension only: each costs a second)
  'AGENT_EXITED(idle-timeout)': {
    event: { type: 'AGENT_EXITED', result: { outcome: 'idle-timeout', exitCode: null, signal: 'SIGTERM', durationMs: 1000, usage: null, transcript: 't.log' } },
    when: () => false,
  },
};

/** The results of the effects every iteration has, whatever the world did. */
const PLUMBING = ['BASELINE_CAPTURED', 'SPEC_RESTORED', 'FILE_WRITTEN', 'COMMITTED', 'SET_MAX_ITERATIONS(1)'];
const WORKER = ['AGENT_EXITED', 'NOTES_READ(DONE)', 'NOTES_READ(IN_PROGRESS)', 'BOUNDARY_SCANNED(clean)'];
const CHECKS = ['CHECK_FINISHED(pass)', 'CHECK_FINISHED(fail)'];
const JUDGE = ['VERDICT_STAMP', 'VERDICT(PASS)', 'VERDICT(FAIL)', 'NOTES_RESET'];
const SCOPER = ['SAGA_NOTES(DONE)', 'SAGA_NOTES(IN_PROGRESS)', 'SUB_PLAN(text)', 'SUB_PLAN(blank)', 'FILE_READ(notes)'];
/**
 * An agent call that hits a rate limit (the API asks for 1 ms: the real wait stays tiny) or cannot
 * authenticate (the run holds until the next `yoke run` journals AGENT_RETRY). Tried at every
 * agent call of the model, whatever its role.
 */
const SETBACKS = ['AGENT_EXITED(rate-limited, retry 1 ms)', 'AGENT_EXITED(auth-error)', 'WAITED', 'AGENT_RETRY'];
/** The plumbing of a setbacks model: no SET_MAX_ITERATIONS (the other models take it; here it would only add a path per vertex). */
const SETBACK_PLUMBING = PLUMBING.filter((name) => name !== 'SET_MAX_ITERATIONS(1)');
/** The context layer (DESIGN §9): the success's commit, with its decision entry dated by the clock and made from notes and plan. */
const CONTEXT = ['CLOCK_READ(T0)', 'FILE_READ(decision)', 'CONTEXT_READ'];
/** The input with `.yoke/context/` recorded as present when the run started, and (as in every new run) the spec restored after every agent call. */
const withContext = (input: WorkInput): WorkInput => ({ ...input, contextLayer: { run: CONTEXT_RUN }, restoresAfterCalls: true });
/** A hook fired on entry of the first state, one on an iteration's transition, and one on entry of a final state (each is a real process). */
const HOOKS = ['hook run-start echo', 'hook iteration-end echo', 'hook bailout echo'];

/**
 * serializeWork without what only multiplies paths here: "was a call ever interrupted" (one
 * interruption per model is enough to take its transition), the cap (no model explores
 * SET_MAX_ITERATIONS past one step) and, between saga chunks, the last chunk's iteration facts;
 * plus, in goal, the failure streak that `noProgress` reads.
 */
export function serializeForExecution(snapshot: AnyMachineSnapshot): string {
  const identity = JSON.parse(serializeWork(snapshot)) as Record<string, unknown>;
  delete identity.interrupted;
  delete identity.max;
  const c = snapshot.context as WorkContext;
  if (c.mode === 'goal') identity.goal = [c.lastFingerprint, c.fingerprintRepeats];
  // Saga, between chunks: what the last chunk's iterations left in the context decides nothing
  // the scoper's states do, so every chunk ending shares one tail.
  if (c.mode === 'saga' && !JSON.stringify(snapshot.value).includes('"chunk"')) {
    for (const key of ['iteration', 'done', 'broken', 'checks', 'passing', 'judge']) delete identity[key];
  }
  return JSON.stringify(identity);
}

const model = (input: WorkInput, ...names: string[][]): ExecutionModel => ({ input, samples: pick(...names.flat()), serialize: serializeForExecution });
/** The same, with its histories (every simple path) executed as well. */
const withHistories = (m: ExecutionModel): ExecutionModel => ({ ...m, histories: true });

/**
 * A goal run's input. Without `engine`, acceptance runs as `check.run` accepts (the path of runs
 * recorded before the check engine, which must keep folding); with it, as one `acceptance.check`.
 */
function goalInput(lines: readonly string[], engine = false): WorkInput {
  const { config, issues } = parseConfig(`${['mode goal', 'agent cmd ./fake-agent.sh', ...lines].join('\n')}\n`, '.loop/yoke.conf', LIFECYCLE_REGISTRY);
  const unexpected = issues;
  if (config === null || unexpected.length > 0) throw new Error(`goal test config does not parse: ${JSON.stringify(unexpected)}`);
  const input: WorkInput = { ...makeInput(config), diagnosePrompt: '\nDiagnose the repeated failure first.', specFiles: ['protocol.md', 'goal.md', 'yoke.conf'] };
  return engine ? { ...input, acceptanceEngine: 'check' } : input;
}

export const LOOP_MODELS: Record<string, ExecutionModel> = {
  /** no guard, a periodic every 2 with a guard-after (iteration 1 plans no check, iteration 2 two), a boundary, an interruption, commit each, hooks */
  checks: withHistories(model(
    makeInput(makeConfig(['max-iterations 2', 'no-modify vendor/', 'periodic audit 2 npm audit', 'guard-after audit audit-clean ./audit-ok.sh', 'commit each', ...HOOKS])),
    PLUMBING, WORKER, CHECKS, ['AGENT_INTERRUPTED', 'BOUNDARY_SCANNED(violation)'],
  )),
  /** tokens and wall-clock ceilings: admission reads the clock, holds the worker, and goes on after a raise */
  budget: model(
    makeInput(makeConfig(['max-iterations 2', 'commit off', 'budget tokens 50', 'budget wall-minutes 1'])),
    PLUMBING, ['AGENT_EXITED(60 tokens, $0.60)', 'NOTES_READ(IN_PROGRESS)', 'BOUNDARY_SCANNED(clean)', 'CLOCK_READ(T0)', 'CLOCK_READ(T0+2m)', 'BUDGET_RAISED(tokens 1000)', 'BUDGET_RAISED(wall-minutes 10)'],
  ),
  /**
   * the worker's call hits a rate limit (waits, then the same call again) or cannot authenticate
   * (held until the next drive retries it); a budget raise while the run is held for its agent
   * changes the ceiling and leaves the hold to the retry
   */
  setbacks: model(
    makeInput(makeConfig(['max-iterations 1', 'commit off', 'budget tokens 50'])),
    SETBACK_PLUMBING, ['AGENT_EXITED', 'NOTES_READ(DONE)', 'BOUNDARY_SCANNED(clean)', 'BUDGET_RAISED(tokens 55)'], SETBACKS,
  ),
  /** the context layer: the done run's commit carries its decision entry */
  context: model(
    withContext(makeInput(makeConfig(['max-iterations 2', 'commit done']))),
    SETBACK_PLUMBING, ['AGENT_EXITED', 'NOTES_READ(DONE)', 'NOTES_READ(IN_PROGRESS)', 'BOUNDARY_SCANNED(clean)'], CONTEXT,
  ),
};

export const BRUTE_MODELS: Record<string, ExecutionModel> = {
  /** a periodic every 2 with a guard-after, a judge-every-2 cadence, a boundary; one DONE-triggered FAIL bails out */
  judged: model(
    makeJudgedInput(makeModeConfig('brute', ['max-iterations 2', 'max-judge-failures 1', 'judge-every 2', 'no-modify vendor/', 'periodic audit 2 npm audit', 'guard-after audit audit-clean ./audit-ok.sh', 'commit each', 'hook bailout echo'])),
    PLUMBING, WORKER, CHECKS, JUDGE, ['AGENT_INTERRUPTED', 'BOUNDARY_SCANNED(violation)', 'VERDICT(invalid)', 'VERDICT(missing)'],
  ),
  /** a second FAIL in a row is needed to bail out: a FAIL, then the worker goes on */
  patient: withHistories(model(
    makeJudgedInput(makeModeConfig('brute', ['max-iterations 2', 'max-judge-failures 2', 'commit done'])),
    PLUMBING, WORKER, JUDGE,
  )),
  /** admission before the worker and the judge: a clock reading two minutes on breaks the wall-minutes ceiling until it is raised */
  budget: model(
    makeJudgedInput(makeModeConfig('brute', ['max-iterations 1', 'max-judge-failures 1', 'commit off', 'budget wall-minutes 1'])),
    PLUMBING, ['AGENT_EXITED', 'AGENT_INTERRUPTED', 'NOTES_READ(DONE)', 'BOUNDARY_SCANNED(clean)', 'VERDICT_STAMP', 'VERDICT(PASS)'],
    ['CLOCK_READ(T0)', 'CLOCK_READ(T0+2m)', 'BUDGET_RAISED(wall-minutes 10)'],
  ),
  /** the worker's and the judge's calls hit a rate limit or cannot authenticate; each retries its own call */
  setbacks: model(
    makeJudgedInput(makeModeConfig('brute', ['max-iterations 1', 'max-judge-failures 1', 'commit off'])),
    SETBACK_PLUMBING, ['AGENT_EXITED', 'NOTES_READ(DONE)', 'BOUNDARY_SCANNED(clean)', 'VERDICT_STAMP', 'VERDICT(PASS)'], SETBACKS,
  ),
  /** the context layer: the judged run's commit carries its decision entry */
  context: model(
    withContext(makeJudgedInput(makeModeConfig('brute', ['max-iterations 1', 'max-judge-failures 1', 'commit done']))),
    SETBACK_PLUMBING, ['AGENT_EXITED', 'NOTES_READ(DONE)', 'BOUNDARY_SCANNED(clean)', 'VERDICT_STAMP', 'VERDICT(PASS)', 'VERDICT(FAIL)', 'NOTES_RESET'], CONTEXT,
  ),
};

export const SAGA_MODELS: Record<string, ExecutionModel> = {
  /** one chunk of up to two iterations: a periodic every 2 with a guard-after, a cadence, a boundary; one FAIL bails the chunk out */
  chunk: model(
    makeJudgedInput(makeModeConfig('saga', ['max-chunks 1', 'max-iterations 2', 'max-judge-failures 1', 'judge-every 2', 'no-modify vendor/', 'periodic audit 2 npm audit', 'guard-after audit audit-clean ./audit-ok.sh', 'commit each'])),
    PLUMBING, WORKER, ['CHECK_FINISHED(pass)'], JUDGE, SCOPER, ['AGENT_INTERRUPTED', 'BOUNDARY_SCANNED(violation)'],
  ),
  /** admission before the scoper, the worker and the judge: the wall clock holds each in turn */
  budget: model(
    makeJudgedInput(makeModeConfig('saga', ['max-chunks 1', 'max-iterations 1', 'max-judge-failures 1', 'commit off', 'budget wall-minutes 1'])),
    PLUMBING, ['AGENT_EXITED', 'NOTES_READ(DONE)', 'BOUNDARY_SCANNED(clean)', 'VERDICT_STAMP', 'VERDICT(PASS)', 'SAGA_NOTES(IN_PROGRESS)', 'SUB_PLAN(text)', 'FILE_READ(notes)'],
    ['CLOCK_READ(T0)', 'CLOCK_READ(T0+2m)', 'BUDGET_RAISED(wall-minutes 10)'],
  ),
  /** the scoper's, the worker's and the judge's calls hit a rate limit or cannot authenticate; each retries its own call */
  setbacks: model(
    makeJudgedInput(makeModeConfig('saga', ['max-chunks 1', 'max-iterations 1', 'max-judge-failures 1', 'commit off'])),
    SETBACK_PLUMBING, ['AGENT_EXITED', 'NOTES_READ(DONE)', 'BOUNDARY_SCANNED(clean)', 'VERDICT_STAMP', 'VERDICT(PASS)', 'SAGA_NOTES(IN_PROGRESS)', 'SUB_PLAN(text)', 'FILE_READ(notes)'], SETBACKS,
  ),
  /** the context layer: the judged chunk's commit carries its decision entry */
  context: model(
    withContext(makeJudgedInput(makeModeConfig('saga', ['max-chunks 1', 'max-iterations 1', 'max-judge-failures 1', 'commit done']))),
    SETBACK_PLUMBING, ['AGENT_EXITED', 'NOTES_READ(DONE)', 'BOUNDARY_SCANNED(clean)', 'VERDICT_STAMP', 'VERDICT(PASS)', 'SAGA_NOTES(IN_PROGRESS)', 'SUB_PLAN(text)', 'FILE_READ(notes)'], CONTEXT,
  ),
};

export const GOAL_MODELS: Record<string, ExecutionModel> = {
  /** one accept criterion and three attempts (the third identical failure blocks; a different one is progress), a boundary, commit on success */
  accept: model(
    goalInput(['max-iterations 3', 'accept tests npm test', 'no-modify vendor/', 'commit done']),
    PLUMBING, ['AGENT_EXITED', 'NOTES_READ(IN_PROGRESS)', 'BOUNDARY_SCANNED(clean)', 'BOUNDARY_SCANNED(violation)'], CHECKS, ['CHECK_FINISHED(fail, other)'],
  ),
  /** an accept and a guard, an interrupted attempt, an agent killed by its idle timeout, a commit after every passing attempt */
  guarded: withHistories(model(
    goalInput(['max-iterations 1', 'accept tests npm test', 'guard lint npm run lint', 'commit each', 'idle-timeout 1s']),
    PLUMBING, ['AGENT_EXITED', 'AGENT_INTERRUPTED', 'AGENT_EXITED(idle-timeout)', 'NOTES_READ(IN_PROGRESS)', 'BOUNDARY_SCANNED(clean)'], CHECKS,
  )),
  /** an attempts ceiling and a wall clock: admission holds the second attempt until the ceiling is raised */
  budget: model(
    goalInput(['max-iterations 2', 'accept tests npm test', 'commit off', 'budget attempts 1', 'budget wall-minutes 10']),
    PLUMBING, ['AGENT_EXITED', 'NOTES_READ(IN_PROGRESS)', 'BOUNDARY_SCANNED(clean)', 'CHECK_FINISHED(fail)', 'CLOCK_READ(T0)', 'BUDGET_RAISED(attempts 3)'],
  ),
  /** the check engine (new runs): one acceptance.check per attempt and no guard after it; a failure retries, a boundary violation skips it */
  engine: model(
    goalInput(['max-iterations 2', 'accept tests npm test', 'no-modify vendor/', 'commit done'], true),
    PLUMBING, ['AGENT_EXITED', 'NOTES_READ(IN_PROGRESS)', 'BOUNDARY_SCANNED(clean)', 'BOUNDARY_SCANNED(violation)'], ['ACCEPTANCE_CHECKED(pass)', 'ACCEPTANCE_CHECKED(fail)'],
  ),
  /** the check engine, then a guard */
  engineGuarded: model(
    goalInput(['max-iterations 1', 'accept tests npm test', 'guard lint npm run lint', 'commit off'], true),
    PLUMBING, ['AGENT_EXITED', 'NOTES_READ(IN_PROGRESS)', 'BOUNDARY_SCANNED(clean)'], ['ACCEPTANCE_CHECKED(pass)', 'ACCEPTANCE_CHECKED(fail)'], CHECKS,
  ),
  /** the worker's call hits a rate limit or cannot authenticate: neither burns the attempt */
  setbacks: model(
    goalInput(['max-iterations 1', 'accept tests npm test', 'commit off']),
    SETBACK_PLUMBING, ['AGENT_EXITED', 'NOTES_READ(IN_PROGRESS)', 'BOUNDARY_SCANNED(clean)', 'CHECK_FINISHED(pass)'], SETBACKS,
  ),
  /** the context layer: the accepted goal's commit carries its decision entry */
  context: model(
    withContext(goalInput(['max-iterations 1', 'accept tests npm test', 'commit done'])),
    SETBACK_PLUMBING, ['AGENT_EXITED', 'NOTES_READ(IN_PROGRESS)', 'BOUNDARY_SCANNED(clean)', 'CHECK_FINISHED(pass)', 'CHECK_FINISHED(fail)'], CONTEXT,
  ),
};

/** Every machine's models, by lifecycle name. */
export const MODELS = { loop: LOOP_MODELS, brute: BRUTE_MODELS, saga: SAGA_MODELS, goal: GOAL_MODELS };
