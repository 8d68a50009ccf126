// Model-based tests of `routing escalate` (DESIGN §15) over the lifecycle machines' own graphs
// (xstate/graph): goal, loop, stories and saga configs with four profiles in three tiers, explored
// with gate failures, infrastructure failures (an idle timeout, a crash) and setbacks, and every
// path replayed with an oracle (support/route-ledger.ts) that counts each sequence's failures
// itself and checks every worker call's profile, model and journaled reason.
import type { AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../config/parse-config.js';
import { goalMachine } from '../../../machines/lifecycles/goal.js';
import { loopMachine } from '../../../machines/lifecycles/loop.js';
import { sagaMachine } from '../../../machines/lifecycles/saga.js';
import { storiesMachine } from '../../../machines/lifecycles/stories.js';
import { LIFECYCLE_REGISTRY } from '../../../machines/lifecycles/registry.js';
import type { WorkContext, WorkInput } from '../../../machines/work/work-context.js';
import { makeJudgedInput } from '../support/judged-input.js';
import { LOOP_DIR, WORKER_PROMPT } from '../support/loop-driver.js';
import { checkRoutePaths, type RouteInvariant } from '../support/route-ledger.js';
import { serializeStories, storiesInput } from '../support/stories-input.js';
import { pathNamer, serializeWork, transitionPaths, type GraphModel, type Sample } from '../support/work-graph.js';
import { ACCEPTANCE_SAMPLES, ITERATION_SAMPLES, SAGA_SAMPLES, VERDICT_SAMPLES, VIOLATION_SAMPLE } from '../support/work-samples.js';

/** Two light profiles (the second never runs), one strong without a model, one frontier above `max-tier`. */
const PROFILES = [
  'profile fast tier light model haiku cmd ./fast.sh', 'profile spare tier light model mini cmd ./spare.sh',
  'profile deep tier strong cmd ./deep.sh', 'profile big tier frontier model opus cmd ./big.sh',
  'agent fast', 'routing escalate',
];

const exit = (classification: 'idle-timeout' | 'crashed', outcome: 'idle-timeout' | 'exited'): Sample => ({
  event: { type: 'AGENT_EXITED', result: { outcome, exitCode: outcome === 'exited' ? 1 : null, signal: outcome === 'exited' ? null : 'SIGTERM', durationMs: 10, usage: null, transcript: 't.log', classification } },
});
/** A worker that went quiet past `idle-timeout`, and one that crashed: neither says anything of the model's work. */
const INFRASTRUCTURE: Record<string, Sample> = { 'AGENT_EXITED(idle-timeout)': exit('idle-timeout', 'idle-timeout'), 'AGENT_EXITED(crashed)': exit('crashed', 'exited') };
const SETBACKS = Object.fromEntries(Object.entries(ITERATION_SAMPLES).filter(([name]) => ['AGENT_EXITED(rate-limited)', 'WAITED', 'AGENT_INTERRUPTED'].includes(name)));
const PLAIN = Object.fromEntries(Object.entries(ITERATION_SAMPLES).filter(([name]) =>
  ['BASELINE_CAPTURED', 'SPEC_RESTORED', 'AGENT_EXITED', 'NOTES_READ(DONE)', 'NOTES_READ(IN_PROGRESS)', 'BOUNDARY_SCANNED(clean)', 'CHECK_FINISHED(pass)', 'CHECK_FINISHED(fail)', 'FILE_WRITTEN', 'COMMITTED'].includes(name)));

function config(mode: 'goal' | 'loop' | 'saga' | 'stories', lines: readonly string[]) {
  const { config: parsed, issues } = parseConfig(`${[`mode ${mode}`, ...PROFILES, ...lines].join('\n')}\n`, '.loop/yoke.conf', LIFECYCLE_REGISTRY);
  if (!parsed) throw new Error(JSON.stringify(issues));
  return parsed;
}

/** Runs started by this yoke route by sequence. */
const bySequence = (input: WorkInput): WorkInput => ({ ...input, sequenceRouting: true });
/** Graph identity: the machine's own, plus each sequence's rung (or, without sequence routing, the run's), so the graph tells rungs apart. */
const withRoutes = (serialize: (snapshot: AnyMachineSnapshot) => string) => (snapshot: AnyMachineSnapshot): string => {
  const c = snapshot.context as WorkContext;
  return JSON.stringify([serialize(snapshot), c.routes ?? null, c.routeStep]);
};

const TWO_STORIES = `stories:
  - id: S1
    title: Parser
    acceptance:
      - text: parses
        check: npm test -- parser
  - id: S2
    title: Printer
    acceptance:
      - text: prints
        check: npm test -- printer
`;

interface RouteModel extends GraphModel { machine: AnyStateMachine }

const MODELS: Record<string, RouteModel> = {
  /** goal: acceptance decides; an idle timeout or a crash before a failed acceptance keeps the rung */
  goal: {
    machine: goalMachine,
    input: bySequence({
      config: config('goal', ['accept tests npm test', 'max-iterations 4', 'max-tier strong', 'no-modify vendor/']),
      workerPrompt: WORKER_PROMPT, diagnosePrompt: ' Diagnose first.', loopDir: LOOP_DIR, specFiles: ['protocol.md', 'goal.md', 'yoke.conf'], acceptanceEngine: 'check',
    }),
    samples: { ...PLAIN, ...ACCEPTANCE_SAMPLES, ...VIOLATION_SAMPLE, ...INFRASTRUCTURE, ...SETBACKS },
    serialize: withRoutes(serializeWork),
  },
  /** loop: a failing guard or a boundary violation climbs, up to frontier (no max-tier) */
  loop: {
    machine: loopMachine,
    input: bySequence({ config: config('loop', ['max-iterations 4', 'guard tests npm test', 'no-modify vendor/', 'commit off']), workerPrompt: WORKER_PROMPT, loopDir: LOOP_DIR, specFiles: ['protocol.md', 'plan.md', 'yoke.conf'] }),
    samples: { ...PLAIN, ...VIOLATION_SAMPLE, ...INFRASTRUCTURE },
    serialize: withRoutes(serializeWork),
  },
  /** stories: each story starts at the bottom, whatever the one before climbed to */
  stories: {
    machine: storiesMachine,
    input: bySequence({
      ...storiesInput(['max-iterations 4'], TWO_STORIES),
      config: config('stories', ['max-iterations 4', 'max-story-attempts 2', 'max-tier strong', 'commit off']),
    }),
    samples: { ...PLAIN, ...INFRASTRUCTURE, 'CLOCK_READ(T0)': { event: { type: 'CLOCK_READ', result: { now: 0 } } }, 'FILE_READ(notes)': { event: { type: 'FILE_READ', result: { content: 'STATUS: DONE\n' } } }, 'STORY_PASSED': { event: { type: 'STORY_PASSED', result: { sha: null, branch: 'main', prdBlob: 'b'.repeat(64) } } } },
    serialize: withRoutes(serializeStories),
  },
  /** saga: each chunk is a sequence of its own; judge verdicts do not climb */
  saga: {
    machine: sagaMachine,
    input: bySequence(makeJudgedInput(config('saga', ['max-chunks 2', 'max-iterations 2', 'max-judge-failures 1', 'guard tests npm test', 'commit off']))),
    samples: { ...PLAIN, ...INFRASTRUCTURE, ...VERDICT_SAMPLES, ...SAGA_SAMPLES },
    serialize: withRoutes(serializeWork),
  },
};

const describePath = pathNamer(Object.assign({}, ...Object.values(MODELS).map((m) => m.samples)) as Record<string, Sample>);

/** What each model's paths must reach: the top rung, and (stories, saga) a second sequence back at the bottom after the first climbed. */
const REACHED: Record<string, string[]> = {
  goal: ['run fast', 'run deep'],
  loop: ['run fast', 'run deep', 'run big'],
  stories: ['story:S1 deep', 'story:S2 fast', 'story:S2 deep'],
  saga: ['chunk:1 deep', 'chunk:2 fast', 'chunk:2 deep'],
};

describe('routing escalate over the machines\' graphs', () => {
  const explored = Object.fromEntries(Object.entries(MODELS).map(([name, m]) => [name, transitionPaths(m.machine, m)]));

  it('(b) every worker call of every path runs its sequence\'s rung with its profile\'s own model, and says why; the paths reach the top rung and a second sequence', () => {
    console.info(`escalate graphs: ${Object.entries(explored).map(([name, t]) => `${name} ${t.vertices} vertices / ${t.paths.length} paths`).join('; ')}`);
    for (const [name, m] of Object.entries(MODELS)) {
      const { failures, folded, seen } = checkRoutePaths(m.machine, m.input, explored[name]?.paths ?? [], describePath);
      console.info(`${name}: ${folded} distinct steps checked; worker calls ran as ${[...seen].sort().join(', ')}`);
      expect(failures.slice(0, 1), name).toEqual([]);
      expect([...seen], name).toEqual(expect.arrayContaining(REACHED[name] ?? []));
      // never the second light profile, never above max-tier
      expect([...seen].filter((entry) => entry.endsWith(' spare') || (name !== 'loop' && entry.endsWith(' big'))), name).toEqual([]);
    }
  });

  it('the oracle has teeth: it catches each rule of runs journaled before sequence routing, and a machine that ignores max-tier', () => {
    const caught = (m: RouteModel, input: WorkInput, only: RouteInvariant[], rules: WorkInput = m.input, samples = m.samples): string =>
      checkRoutePaths(m.machine, input, transitionPaths(m.machine, { ...m, input, samples }).paths, describePath, rules, new Set(only)).failures[0] ?? '';
    const legacy = (input: WorkInput): WorkInput => ({ ...input, sequenceRouting: undefined });
    const withoutSpare = (input: WorkInput): WorkInput => ({ ...input, config: { ...input.config, profiles: input.config.profiles?.filter((p) => p.name !== 'spare') } });
    const { goal, stories } = MODELS as Record<'goal' | 'stories', RouteModel>;
    // no reason journaled
    expect(caught(goal, legacy(goal.input), ['reason'])).toMatch(/^§15 every escalate call journals why[^\n]*: undefined/);
    // a ladder by profile steps sideways to the second light profile
    expect(caught(goal, legacy(goal.input), ['rung'])).toMatch(/^§15 escalate: [^\n]*so deep, but the call runs as spare/);
    // an idle timeout escalated (the only way the worker ends here, so the graph cannot merge it with a plain failure)
    const { 'AGENT_EXITED': _ok, 'AGENT_EXITED(crashed)': _crashed, ...idleOnly } = goal.samples;
    expect(caught(goal, legacy(withoutSpare(goal.input)), ['rung'], withoutSpare(goal.input), idleOnly)).toMatch(/so fast, but the call runs as deep\n {2}after: .*AGENT_EXITED\(idle-timeout\)/);
    // the rung carried from S1 to S2 (without infrastructure failures, the only difference left)
    const { 'AGENT_EXITED(idle-timeout)': _idle, 'AGENT_EXITED(crashed)': _crash, ...plain } = stories.samples;
    expect(caught(stories, legacy(withoutSpare(stories.input)), ['rung'], withoutSpare(stories.input), plain)).toMatch(/^§15 escalate: [^\n]*: story:S2 failed 0 time\(s\), so fast, but the call runs as deep/);
    // the `agent` profile's model leaked into a profile without one
    expect(caught(goal, legacy(withoutSpare(goal.input)), ['model'], withoutSpare(goal.input))).toMatch(/^§15 each profile runs with its own model[^\n]*: deep runs with haiku, not null/);
    // a machine that climbs past max-tier
    const uncapped = { ...goal.input, config: { ...goal.input.config, maxTier: undefined } };
    expect(caught(goal, uncapped, ['rung'])).toMatch(/so deep, but the call runs as big/);
  });
});
