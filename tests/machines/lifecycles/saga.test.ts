// Model-based tests of the saga machine (spec §4), from its own graph (xstate/graph), plus scripted
// drives of its chunk rules.
//
// As for brute (brute.test.ts): each config's bounded graph is explored with sample events;
// (a) every state node, transition (the chunk's `onDone` included) and guarded alternative of
// sagaMachine is taken by some path of some config; (b) every path is replayed through the pure
// machine with the independent bookkeeper (support/work-ledger.ts), which checks spec §4, the
// judge rules of spec §2 inside each chunk, and call admission for scoper, worker and judge.
import type { AnyStateMachine } from 'xstate';
import { makeProtection } from '../../../machines/protect/protection.js';
import { describe, expect, it } from 'vitest';
import type { EffectRequest } from '../../../machines/effects.js';
import { sagaMachine } from '../../../machines/lifecycles/saga.js';
import { drive, makeAcceptanceResult, makeAgentResult, makeCheckResult, type Responder } from '../support/loop-driver.js';
import { makeJudgedInput, makeModeConfig } from '../support/judged-input.js';
import { allStateNodes, allTransitions, coverageOf, missing } from '../support/transition-coverage.js';
import { pathNamer, serializeWork, transitionPaths, type GraphModel, type Sample } from '../support/work-graph.js';
import { checkPaths } from '../support/work-ledger.js';
import { checkRoutePaths } from '../support/route-ledger.js';
import { BUDGET_SAMPLES, CONTEXT_RUN, CONTEXT_SAMPLES, ITERATION_SAMPLES, PLAIN_ITERATION_SAMPLES, PROTECT_SAMPLES, PROTECTED_FILE, SAGA_SAMPLES, VERDICT_SAMPLES, VIOLATION_SAMPLE } from '../support/work-samples.js';

// the loop and brute models cover wall-clock breaches and raises that fall short; here a tokens hold
// in front of each role's gate (and its clock reading) is enough
const SPENDING_SAMPLES = Object.fromEntries(Object.entries(BUDGET_SAMPLES).filter(([name]) => ['AGENT_EXITED(60 tokens, $0.60)', 'CLOCK_READ(T0)', 'BUDGET_RAISED(tokens 1000)'].includes(name)));
const { 'CHECK_FINISHED(fail)': _fail, ...WITHOUT_FAILING_CHECKS } = ITERATION_SAMPLES;

/** Two chunks of up to two iterations, a cadence, two guards and a boundary; one FAIL bails a chunk out. */
const MODEL: GraphModel = {
  input: makeJudgedInput(makeModeConfig('saga', [
    'max-chunks 2', 'max-iterations 2', 'max-judge-failures 1', 'judge-every 2', 'no-modify vendor/', 'guard tests npm test', 'guard lint npm run lint', 'commit each',
  ])),
  samples: { ...ITERATION_SAMPLES, ...VIOLATION_SAMPLE, ...VERDICT_SAMPLES, ...SAGA_SAMPLES },
  serialize: serializeWork,
};
/** No guards (the `noChecksPlanned` route), two FAILs to bail out, commit off. */
const GUARDLESS: GraphModel = {
  input: makeJudgedInput(makeModeConfig('saga', ['max-chunks 2', 'max-iterations 2', 'max-judge-failures 2', 'commit off'])),
  samples: { ...WITHOUT_FAILING_CHECKS, ...VERDICT_SAMPLES, ...SAGA_SAMPLES },
  serialize: serializeWork,
};
/** Budgets: admission before the scoper, the worker and the judge (one chunk: the graph grows fast with budgets). */
const { 'VERDICT(invalid)': _invalid, 'VERDICT(missing)': _missing, ...PASS_OR_FAIL } = VERDICT_SAMPLES;
const BUDGET: GraphModel = {
  input: makeJudgedInput(makeModeConfig('saga', ['max-chunks 2', 'max-iterations 1', 'max-judge-failures 1', 'commit off', 'budget tokens 50', 'budget wall-minutes 1'])),
  samples: { ...WITHOUT_FAILING_CHECKS, ...PASS_OR_FAIL, ...SAGA_SAMPLES, ...SPENDING_SAMPLES },
  serialize: serializeWork,
};
/** DESIGN §16: a protected test file, edited by the scoper, the worker or the judge (restored; the judge overruled) or left alone. */
const PROTECTED: GraphModel = {
  input: { ...makeJudgedInput(makeModeConfig('saga', ['max-chunks 1', 'max-iterations 2', 'max-judge-failures 1', 'commit off', 'protect tests/'])), protection: makeProtection(['tests/'], [PROTECTED_FILE]), protectAll: true },
  samples: { ...ITERATION_SAMPLES, ...VERDICT_SAMPLES, ...SAGA_SAMPLES, ...PROTECT_SAMPLES },
  serialize: serializeWork,
};
/** The context layer: each passing chunk's commit carries its DECISIONS.md entry (DESIGN §9). */
const CONTEXT: GraphModel = {
  input: { ...makeJudgedInput(makeModeConfig('saga', ['max-chunks 2', 'max-iterations 1', 'max-judge-failures 1', 'commit done'])), contextLayer: { run: CONTEXT_RUN, inject: true }, restoresAfterCalls: true },
  samples: { ...PLAIN_ITERATION_SAMPLES, ...PASS_OR_FAIL, ...SAGA_SAMPLES, ...CONTEXT_SAMPLES },
  serialize: serializeWork,
};
/** A protected saga as new runs start (protectAll and restoresAfterCalls): the scoper's and the judge's calls are followed by the spec restore, then the protect scan. */
const PROTECTED_RESTORING: GraphModel = {
  input: { ...makeJudgedInput(makeModeConfig('saga', ['max-chunks 1', 'max-iterations 1', 'max-judge-failures 1', 'commit off', 'protect tests/'])), protection: makeProtection(['tests/'], [PROTECTED_FILE]), protectAll: true, restoresAfterCalls: true },
  samples: { ...PLAIN_ITERATION_SAMPLES, ...PASS_OR_FAIL, ...SAGA_SAMPLES, ...PROTECT_SAMPLES },
  serialize: serializeWork,
};
/** DESIGN §15: `routing escalate` between a light and a strong profile, routed by sequence (the runs this yoke starts): a failing guard climbs, per chunk. */
const ESCALATE: GraphModel = {
  input: { ...makeJudgedInput(makeModeConfig('saga', ['max-chunks 2', 'max-iterations 2', 'max-judge-failures 1', 'guard tests npm test', 'commit off', 'profile fast tier light cmd ./fast.sh', 'profile deep tier strong model opus cmd ./deep.sh', 'routing escalate'])), sequenceRouting: true },
  samples: { ...PLAIN_ITERATION_SAMPLES, 'CHECK_FINISHED(fail)': ITERATION_SAMPLES['CHECK_FINISHED(fail)'] as Sample, ...PASS_OR_FAIL, ...SAGA_SAMPLES },
  serialize: serializeWork,
};
const MODELS = { model: MODEL, guardless: GUARDLESS, budget: BUDGET, context: CONTEXT, protected: PROTECTED, protectedRestoring: PROTECTED_RESTORING, escalate: ESCALATE };
const describePath = pathNamer({ ...MODEL.samples, ...BUDGET.samples, ...CONTEXT_SAMPLES });

describe('saga machine graph', () => {
  const explored = Object.fromEntries(Object.entries(MODELS).map(([name, model]) => [name, transitionPaths(sagaMachine, model)]));
  const coverage = Object.fromEntries(Object.entries(MODELS).map(([name, model]) => [name, coverageOf(model.input, explored[name]?.paths ?? [], sagaMachine)]));
  const union = (key: 'nodes' | 'types' | 'candidates') => new Set(Object.values(coverage).flatMap((c) => [...c[key]]));

  it('the bounded graphs are finite and reach every ending', () => {
    console.info(`saga graph: ${Object.entries(explored).map(([name, t]) => `${name} ${t.vertices} vertices / ${t.paths.length} transition paths`).join('; ')}`);
    expect([...(explored.model?.ends ?? [])].sort()).toEqual(['active', 'empty-sub-plan', 'max-chunks', 'saga-done']);
  });

  it('(a) every state node, every (state node, event type) transition and every guarded alternative is taken by some path', () => {
    const nodes = allStateNodes(sagaMachine.root).map((n) => n.id);
    const { types, candidates } = allTransitions(sagaMachine);
    console.info(`coverage: ${union('nodes').size}/${nodes.length} state nodes, ${union('types').size}/${types.length} transitions, ${union('candidates').size}/${candidates.length} alternatives`);
    expect(missing(nodes, union('nodes')), 'state nodes no path reaches').toEqual([]);
    expect(missing(types, union('types')), 'transitions no path takes').toEqual([]);
    expect(missing(candidates, union('candidates')), 'transition alternatives no path takes').toEqual([]);
    expect(types).toContain('saga.chunk xstate.done.state.saga.chunk');
  });

  it('(b) spec §4, the judge rules of spec §2 per chunk, and budget invariants hold after every step of every transition path', () => {
    for (const [name, model] of Object.entries(MODELS)) {
      const { failures } = checkPaths(sagaMachine, model.input, explored[name]?.paths ?? [], describePath);
      expect(failures.slice(0, 3), name).toEqual([]);
    }
  });

  it('(b) routing escalate: every worker call runs its sequence\'s rung with its own model and says why (support/route-ledger.ts)', () => {
    const { failures, seen } = checkRoutePaths(sagaMachine, ESCALATE.input, explored.escalate?.paths ?? [], describePath);
    expect(failures.slice(0, 1)).toEqual([]);
    expect([...seen]).toEqual(expect.arrayContaining(['chunk:1 deep', 'chunk:2 fast']));
  });

  it('the invariants have teeth: they catch a saga that runs one chunk too many or admits a call past a ceiling', () => {
    const first = (machine: AnyStateMachine, model: GraphModel, oracle = model.input): string =>
      checkPaths(machine, model.input, transitionPaths(machine, model).paths, describePath, { firstOnly: true, oracle }).failures[0] ?? '';
    const extraChunk = { ...GUARDLESS, input: { ...GUARDLESS.input, config: { ...GUARDLESS.input.config, maxChunks: 3 } } };
    expect(first(sagaMachine, extraChunk, GUARDLESS.input)).toMatch(/^max-chunks: at most max-chunks chunks/);
    const admitsAll = sagaMachine.provide({ guards: { overBudget: () => false } });
    expect(first(admitsAll, BUDGET)).toMatch(/^budgets: an agent\.spawn is never requested while a ceiling is breached/);
  });
});

// ---- scripted drives ----------------------------------------------------------------------------

interface SagaScript {
  /** saga-notes.md's first line after the scoper's nth call */
  sagaNotes: (scoperCall: number) => string;
  /** sub-plan.md's first line after the scoper's nth call (null = blank) */
  subPlan: (scoperCall: number) => string | null;
  /** notes.md's first line after the worker's call in (chunk, iteration) */
  notes: (chunk: number, iteration: number) => string;
  /** the judge's verdict line in (chunk, iteration) */
  verdict: (chunk: number, iteration: number) => string;
}

function sagaResponder(script: SagaScript): Responder {
  let scoperCalls = 0;
  let chunk = 0;
  let iteration = 0;
  let inspecting: 'saga' | 'plan' | 'verdict' = 'saga';
  return (request: EffectRequest) => {
    switch (request.kind) {
      case 'baseline.capture':
        return { specFiles: {}, tree: 'tree-0' };
      case 'spec.restore':
        return { restored: [], displaced: {} };
      case 'agent.spawn':
        if (request.params.role === 'scoper') scoperCalls += 1;
        chunk = request.params.chunk ?? chunk;
        iteration = request.params.iteration;
        return makeAgentResult(request.params.iteration);
      case 'notes.read':
        return { firstLine: script.notes(chunk, iteration) };
      case 'boundary.scan':
        return { changed: [] };
      case 'acceptance.check':
        return makeAcceptanceResult(request.params);
      case 'check.run':
        return makeCheckResult(0, 'ok');
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
      case 'worktree.create': case 'candidate.commit': case 'candidate.rebase': case 'candidate.reject': case 'story.land': case 'worktree.remove':
        throw new Error(`only parallel stories request ${request.kind}`);
      case 'file.inspect': {
        inspecting = request.params.file === 'saga-notes.md' ? 'saga' : request.params.file === 'sub-plan.md' ? 'plan' : 'verdict';
        const line = inspecting === 'saga' ? script.sagaNotes(scoperCalls) : inspecting === 'plan' ? script.subPlan(scoperCalls) : script.verdict(chunk, iteration);
        return { exists: true, firstLine: line, blank: line === null };
      }
      case 'file.read':
        return { content: `STATUS: ${script.notes(chunk, iteration).replace('STATUS: ', '')}\nnotes of chunk ${chunk}\n` };
      case 'notes.reset':
        return { changed: true };
      case 'clock.read':
        return { now: 0 };
      case 'wait.until':
        return { waitedMs: 0 };
      case 'protect.scan':
        return { files: [] };
      case 'protect.restore':
        return { restored: [] };
    }
  };
}

function sagaDrive(lines: string[], script: SagaScript) {
  return drive(makeJudgedInput(makeModeConfig('saga', lines)), sagaResponder(script), { machine: sagaMachine });
}

const calls = (requests: readonly EffectRequest[]): string[] =>
  requests.flatMap((r) => (r.kind === 'agent.spawn' ? [`${r.params.role}${r.params.role === 'scoper' ? '' : `#${r.params.chunk}.${r.params.iteration}`}`] : []));

describe('saga machine, scripted', () => {
  it('4.1 notes.md saying DONE never ends the saga; saga-notes.md does', () => {
    const run = sagaDrive(['max-chunks 5', 'max-iterations 2'], {
      sagaNotes: (n) => (n === 3 ? 'STATUS: DONE' : 'STATUS: IN_PROGRESS'),
      subPlan: (n) => `# chunk ${n}`,
      notes: () => 'STATUS: DONE',
      verdict: () => 'VERDICT: PASS',
    });
    expect(run.output).toMatchObject({ exitCode: 0, reason: 'saga-done' });
    expect(calls(run.requests)).toEqual(['scoper', 'worker#1.1', 'judge#1.1', 'scoper', 'worker#2.1', 'judge#2.1', 'scoper']);
  });

  it('4.2 a chunk bailout hands control back to the scoper, which re-scopes; chunk numbers keep counting', () => {
    const run = sagaDrive(['max-chunks 4', 'max-iterations 5', 'max-judge-failures 2'], {
      sagaNotes: (n) => (n === 3 ? 'STATUS: DONE' : 'STATUS: IN_PROGRESS'),
      subPlan: (n) => `# chunk ${n}`,
      notes: () => 'STATUS: DONE',
      verdict: (chunk) => (chunk === 1 ? 'VERDICT: FAIL' : 'VERDICT: PASS'),
    });
    expect(calls(run.requests)).toEqual(['scoper', 'worker#1.1', 'judge#1.1', 'worker#1.2', 'judge#1.2', 'scoper', 'worker#2.1', 'judge#2.1', 'scoper']);
    expect(run.output).toMatchObject({ exitCode: 0, reason: 'saga-done' });
    // the FAIL streak of chunk 1 does not carry into chunk 2
    expect(run.requests.filter((r) => r.kind === 'notes.reset')).toHaveLength(2);
  });

  it('4.3 a blank sub-plan aborts with exit 1 before any worker call', () => {
    const run = sagaDrive(['max-chunks 4'], { sagaNotes: () => 'STATUS: IN_PROGRESS', subPlan: () => null, notes: () => 'STATUS: DONE', verdict: () => 'VERDICT: PASS' });
    expect(run.output).toMatchObject({ exitCode: 1, reason: 'empty-sub-plan' });
    expect(calls(run.requests)).toEqual(['scoper']);
  });

  it('4.4/4.5 each finished chunk’s notes are appended under `## Chunk N`; every write extends the last', () => {
    const run = sagaDrive(['max-chunks 3', 'max-iterations 1'], {
      sagaNotes: () => 'STATUS: IN_PROGRESS',
      subPlan: (n) => `# chunk ${n}`,
      notes: () => 'STATUS: DONE',
      verdict: (chunk) => (chunk === 2 ? 'VERDICT: FAIL' : 'VERDICT: PASS'),
    });
    expect(run.output).toMatchObject({ exitCode: 1, reason: 'max-chunks' });
    const logs = run.requests.flatMap((r) => (r.kind === 'file.write' && r.params.file === 'saga-log.md' ? [r.params.content] : []));
    expect(logs).toHaveLength(3);
    for (let i = 1; i < logs.length; i += 1) expect(logs[i]?.startsWith(logs[i - 1] ?? '\u0000')).toBe(true);
    expect([...(logs.at(-1) ?? '').matchAll(/^## Chunk (\d+)$/gm)].map((m) => Number(m[1]))).toEqual([1, 2, 3]);
    expect(logs.at(-1)).toContain('## Chunk 2\n\nSTATUS: DONE\nnotes of chunk 2\n');
  });

  it('max-chunks: after the last chunk the scoper still gets its turn to say DONE', () => {
    const run = sagaDrive(['max-chunks 2', 'max-iterations 1'], {
      sagaNotes: (n) => (n === 3 ? 'STATUS: DONE' : 'STATUS: IN_PROGRESS'),
      subPlan: (n) => `# chunk ${n}`,
      notes: () => 'STATUS: DONE',
      verdict: () => 'VERDICT: PASS',
    });
    expect(run.output).toMatchObject({ exitCode: 0, reason: 'saga-done' });
    expect(calls(run.requests).filter((c) => c === 'scoper')).toHaveLength(3);
  });
});

