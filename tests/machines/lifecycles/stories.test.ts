// Model-based tests of the stories machine (DESIGN §8), from its own graph (xstate/graph).
//
// As for the loop and brute (loop-graph.test.ts, brute.test.ts): the graph of each config is
// explored with one sample event per outcome that matters; (a) every state node, transition and
// guarded alternative of storiesMachine is taken by some path of some config; (b) every path is
// replayed through the pure machine with an independent bookkeeper (support/story-ledger.ts) that
// never reads the machine's context, and every §8 invariant holds after every step: selection
// order, Stop-the-Line, per-story gates, one story.pass per story and only after every gate,
// max-story-attempts and no-progress blocking, on-story-blocked, and how the run ends.
import { describe, expect, it } from 'vitest';
import { parsePrd } from '../../../config/prd/parse-prd.js';
import { storiesMachine } from '../../../machines/lifecycles/stories.js';
import type { WorkContext, WorkInput } from '../../../machines/work/work-context.js';
import { makeCheckResult } from '../support/loop-driver.js';
import { checkStoryPaths } from '../support/story-ledger.js';
import { serializeStories, storiesInput } from '../support/stories-input.js';
import { allStateNodes, allTransitions, coverageOf, missing } from '../support/transition-coverage.js';
import { pathNamer, transitionPaths, type GraphModel, type Sample } from '../support/work-graph.js';
import { makeProtection } from '../../../machines/protect/protection.js';
import { ACCEPTANCE_SAMPLES, BUDGET_SAMPLES, CONTEXT_RUN, CONTEXT_SAMPLES, ITERATION_SAMPLES, PLAIN_ITERATION_SAMPLES, PROTECT_SAMPLES, PROTECTED_FILE, VERDICT_SAMPLES, VIOLATION_SAMPLE, T0 } from '../support/work-samples.js';

/** What a passing story's three steps answer: the clock for its decision entry, its notes, its commit. */
export const PASS_SAMPLES: Record<string, Sample> = {
  'CLOCK_READ(T0)': { event: { type: 'CLOCK_READ', result: { now: T0 } } },
  'FILE_READ(notes)': { event: { type: 'FILE_READ', result: { content: 'STATUS: DONE\nDecision: one line at a time\n' } }, when: (state) => state.includes('passNotes') },
  'STORY_PASSED': { event: { type: 'STORY_PASSED', result: { sha: 'c0ffee', branch: 'main', prdBlob: 'b'.repeat(64) } } },
};

/** A second, different failure: "the same failure three times" and "a different one" both exist. */
const OTHER_FAILURE: Record<string, Sample> = {
  'CHECK_FINISHED(fail, other)': { event: { type: 'CHECK_FINISHED', result: makeCheckResult(1, 'another failure') } },
};

const model = (input: WorkInput, ...samples: Array<Record<string, Sample>>): GraphModel => ({ input, samples: Object.assign({}, ...samples) as Record<string, Sample>, serialize: serializeStories });

const TWO_STORIES = `stories:
  - id: S1
    title: Parser
    priority: 1
    acceptance:
      - text: parses
        check: npm test -- parser
  - id: S2
    title: Printer
    priority: 2
    depends-on: [S1]
    acceptance:
      - prints
      - text: printed
        check: npm test -- printer
`;

const THREE_STORIES = `stories:
  - id: S1
    title: Parser
    acceptance:
      - text: parses
        check: npm test -- parser
  - id: S2
    title: Printer
    depends-on: [S1]
    acceptance: [prints]
  - id: S3
    title: Docs
    priority: 9
    acceptance:
      - text: documented
        check: test -f docs.md
`;

const ONE_STORY = `stories:
  - id: S1
    title: Parser
    acceptance:
      - text: parses
        check: npm test -- parser
`;

/** Journeys as story checks: S1's only check is a journey; S2's journey comes before its command in prd.yaml, and runs after it. */
const JOURNEY_STORIES = `stories:
  - id: S1
    title: Landing page
    acceptance:
      - text: a visitor sees it
        check: journey:smoke
  - id: S2
    title: Profile
    acceptance:
      - text: saves
        check: journey:smoke
      - text: tested
        check: npm test -- profile
`;
const JOURNEY_CONF = ['journey smoke journeys/smoke.yaml', 'base-url http://127.0.0.1:3000'];

/** S0 passed already; S1 (after S0) has no criteria: the line stops until prd.yaml gives it some. */
const VAGUE = `stories:
  - id: S0
    title: Done before
    acceptance: [x]
    passes: true
  - id: S1
    title: Vague
    depends-on: [S0]
`;
const FIXED = parsePrd(VAGUE.replace('    depends-on: [S0]\n', '    depends-on: [S0]\n    acceptance: [now clear]\n'), '.loop/prd.yaml').stories ?? [];
const LINE_SAMPLES: Record<string, Sample> = {
  'STORIES_CHANGED(S1 criteria)': {
    event: { type: 'STORIES_CHANGED', stories: FIXED, prdBlob: 'a'.repeat(64), added: [], removed: [], edited: ['S1'], reopened: [] },
    when: (state) => state.includes('stoppedLine'),
  },
};

/** ONE_STORY as the user edits it while the run is stopped with a spec restore outstanding: S1 gets a second criterion. */
const ONE_STORY_EDITED = parsePrd(ONE_STORY.replace('        check: npm test -- parser\n', '        check: npm test -- parser\n      - prints\n'), '.loop/prd.yaml').stories ?? [];
const EDIT_SAMPLES: Record<string, Sample> = {
  'STORIES_CHANGED(S1 edited, restore outstanding)': {
    event: { type: 'STORIES_CHANGED', stories: ONE_STORY_EDITED, prdBlob: 'e'.repeat(64), added: [], removed: [], edited: ['S1'], reopened: [] },
    // where a restore is outstanding: before the worker's call, after it, after the judge's (once: see editedWhileRestoring)
    when: (state) => /^"restoring(AfterWorker|AfterJudge)?"$/.test(state),
  },
};

const STORY_SETBACKS: Record<string, Sample> = Object.fromEntries(Object.entries(ITERATION_SAMPLES).filter(([name]) =>
  ['AGENT_INTERRUPTED', 'AGENT_EXITED(rate-limited)', 'AGENT_EXITED(auth-error)', 'AGENT_EXITED(tool-held)', 'AGENT_EXITED(tool-ungated)', 'WAITED', 'AGENT_RETRY'].includes(name)));
const CHECK_FAIL = { 'CHECK_FINISHED(fail)': ITERATION_SAMPLES['CHECK_FINISHED(fail)'] as Sample };
const { 'VERDICT(invalid)': _invalid, 'VERDICT(missing)': _missing, ...PASS_OR_FAIL } = VERDICT_SAMPLES;
const { 'BUDGET_RAISED(attempts 3)': _attempts, 'BUDGET_RAISED(tokens 55)': _t55, 'BUDGET_RAISED(tokens 1000)': _t1000, 'AGENT_EXITED(60 tokens, $0.60)': _spend, ...CLOCK_BUDGET } = BUDGET_SAMPLES;

const MODELS: Record<string, GraphModel> = {
  /** DESIGN §16: a protected test file the worker edits (restored, the attempt fails), the judge edits (restored, overruled as FAIL) or both leave alone, under `review on` */
  protectedReview: model(
    { ...storiesInput(['max-iterations 2', 'max-story-attempts 2', 'review on', 'protect tests/'], ONE_STORY), protection: makeProtection(['tests/'], [PROTECTED_FILE]), protectAll: true },
    PLAIN_ITERATION_SAMPLES, PASS_OR_FAIL, PASS_SAMPLES, PROTECT_SAMPLES,
  ),
  /** two stories in order, a guard and a boundary, two attempts per story, every setback of the worker, a raised cap */
  gates: model(
    storiesInput(['max-iterations 4', 'max-story-attempts 2', 'no-modify vendor/', 'guard tests npm test'], TWO_STORIES),
    ITERATION_SAMPLES, VIOLATION_SAMPLE, PASS_SAMPLES,
  ),
  /** `on-story-blocked skip`: S1 blocked after one failed DONE, S3 still passes, S2 waits on S1 for ever */
  skip: model(
    storiesInput(['max-iterations 4', 'max-story-attempts 1', 'on-story-blocked skip', 'commit off'], THREE_STORIES),
    PLAIN_ITERATION_SAMPLES, CHECK_FAIL, PASS_SAMPLES,
  ),
  /** the same failure three times in a row blocks a story before max-story-attempts; a different one is progress */
  noProgress: model(
    storiesInput(['max-iterations 5', 'max-story-attempts 5'], ONE_STORY),
    PLAIN_ITERATION_SAMPLES, CHECK_FAIL, OTHER_FAILURE, PASS_SAMPLES,
  ),
  /** `review on`: a judge before every pass; a FAIL resets the notes and counts as an attempt; the judge's setbacks */
  review: model(
    storiesInput(['max-iterations 2', 'max-story-attempts 2', 'review on'], ONE_STORY),
    PLAIN_ITERATION_SAMPLES, CHECK_FAIL, VERDICT_SAMPLES, PASS_SAMPLES, STORY_SETBACKS,
  ),
  /** admission before the worker and the judge: a clock two minutes on breaks wall-minutes until it is raised */
  budget: model(
    storiesInput(['max-iterations 2', 'max-story-attempts 2', 'review on', 'budget wall-minutes 1'], ONE_STORY),
    PLAIN_ITERATION_SAMPLES, PASS_OR_FAIL, PASS_SAMPLES, CLOCK_BUDGET,
  ),
  /** Stop-the-Line: held before any agent call; `yoke run` after prd.yaml is fixed journals the change and goes on */
  stopLine: model(storiesInput(['max-iterations 1'], VAGUE), PLAIN_ITERATION_SAMPLES, PASS_SAMPLES, LINE_SAMPLES, { 'AGENT_RETRY': ITERATION_SAMPLES['AGENT_RETRY'] as Sample }),
  /** DESIGN §16: a protected test file, edited by the worker (restored) or left alone */
  protected: model(
    { ...storiesInput(['max-iterations 2', 'max-story-attempts 2', 'commit off', 'protect tests/'], ONE_STORY), protection: makeProtection(['tests/'], [PROTECTED_FILE]) },
    PLAIN_ITERATION_SAMPLES, CHECK_FAIL, PASS_SAMPLES, PROTECT_SAMPLES,
  ),
  /** the context layer (DESIGN §9): `.yoke/context/` read before the worker's and the judge's call, the block opening their prompts; the spec restored after each call, as in new runs */
  context: model(
    { ...storiesInput(['max-iterations 2', 'max-story-attempts 2', 'review on'], ONE_STORY), contextLayer: { run: CONTEXT_RUN, inject: true }, restoresAfterCalls: true },
    PLAIN_ITERATION_SAMPLES, PASS_OR_FAIL, PASS_SAMPLES, { 'CONTEXT_READ': CONTEXT_SAMPLES['CONTEXT_READ'] as Sample },
  ),
  /** as new protected runs start (protectAll, restoresAfterCalls): the judge's call is followed by the spec restore, then its protect scan */
  protectedRestoring: model(
    { ...storiesInput(['max-iterations 1', 'review on', 'protect tests/'], ONE_STORY), protection: makeProtection(['tests/'], [PROTECTED_FILE]), protectAll: true, restoresAfterCalls: true },
    PLAIN_ITERATION_SAMPLES, PASS_OR_FAIL, PASS_SAMPLES, PROTECT_SAMPLES,
  ),
  /** prd.yaml edited while a spec restore was outstanding (before or after the worker's or the judge's call): the restore runs again, with the edit */
  editedWhileRestoring: {
    ...model({ ...storiesInput(['max-iterations 1', 'review on'], ONE_STORY), restoresAfterCalls: true }, PLAIN_ITERATION_SAMPLES, PASS_OR_FAIL, PASS_SAMPLES, EDIT_SAMPLES),
    // the user edits once: S1 still has its one criterion
    allow: (snapshot, event) => event.type !== 'STORIES_CHANGED' || (snapshot.context as WorkContext).prd?.stories[0]?.acceptance?.length === 1,
  },
  /** DESIGN §12: a story's `journey:` checks run as one acceptance check after its commands (runs that record `storyJourneys`) */
  journeys: model(
    { ...storiesInput(['max-iterations 2', 'max-story-attempts 1', ...JOURNEY_CONF], JOURNEY_STORIES), storyJourneys: true, run: 'RUN1' },
    PLAIN_ITERATION_SAMPLES, CHECK_FAIL, ACCEPTANCE_SAMPLES, PASS_SAMPLES,
  ),
  /** journaled before `storyJourneys`: the same `journey:` checks folded as shell commands, as those runs did */
  journeysBefore: model(storiesInput(['max-iterations 1', 'max-story-attempts 1', ...JOURNEY_CONF], JOURNEY_STORIES), PLAIN_ITERATION_SAMPLES, CHECK_FAIL, PASS_SAMPLES),
  /** every story passed already (an import carried `passes: true`): the run is done at once */
  allPassed: model(storiesInput(['max-iterations 1'], ONE_STORY.replace('check: npm test -- parser\n', 'check: npm test -- parser\n    passes: true\n')), PLAIN_ITERATION_SAMPLES),
};

const describePath = pathNamer(Object.assign({}, ...Object.values(MODELS).map((m) => m.samples)) as Record<string, Sample>);

/**
 * Alternatives no stories config can take: the judge is only ever triggered by DONE here (no
 * `judge-every` cadence in this mode), so a verdict that is neither a DONE-triggered FAIL nor a
 * PASS does not exist.
 */
const UNREACHABLE = ['stories.judged always #2 → stories.settling'];
/** The parallel coordinator (`parallel N`, DESIGN §10) and its resume-time change of N (SET_PARALLEL) are not part of these serial configs: tests/e2e/parallel.test.ts drives it; it has no graph model yet. */
const serial = (id: string): boolean => !id.includes('stories.parallel') && !id.includes('SET_PARALLEL');

describe('stories machine graph', () => {
  const explored = Object.fromEntries(Object.entries(MODELS).map(([name, m]) => [name, transitionPaths(storiesMachine, m)]));
  const coverage = Object.fromEntries(Object.entries(MODELS).map(([name, m]) => [name, coverageOf(m.input, explored[name]?.paths ?? [], storiesMachine)]));
  const union = (key: 'nodes' | 'types' | 'candidates') => new Set(Object.values(coverage).flatMap((c) => [...c[key]]));

  it('the bounded graphs are finite and reach every ending', () => {
    console.info(`stories graph: ${Object.entries(explored).map(([name, t]) => `${name} ${t.vertices} vertices / ${t.paths.length} transition paths`).join('; ')}`);
    const ends = new Set(Object.values(explored).flatMap((t) => [...t.ends]));
    expect([...ends].sort()).toEqual(['active', 'max-iterations', 'stories-blocked', 'stories-done', 'story-blocked']);
    expect([...(explored.skip?.ends ?? [])]).toContain('stories-blocked');
    expect([...(explored.noProgress?.ends ?? [])]).toContain('story-blocked');
  });

  it('(a) every state node, every (state node, event type) transition and every guarded alternative is taken by some path', () => {
    const nodes = allStateNodes(storiesMachine.root).map((n) => n.id).filter(serial);
    const all = allTransitions(storiesMachine);
    const types = all.types.filter(serial);
    const candidates = all.candidates.filter(serial);
    console.info(`coverage: ${union('nodes').size}/${nodes.length} state nodes, ${union('types').size}/${types.length} transitions, ${union('candidates').size}/${candidates.length} alternatives`);
    expect(missing(nodes, union('nodes')), 'state nodes no path reaches').toEqual([]);
    expect(missing(types, union('types')), 'transitions no path takes').toEqual([]);
    expect(missing(candidates, union('candidates')), 'transition alternatives no path takes').toEqual(UNREACHABLE);
  });

  it('(b) the §8 invariants hold after every step of every transition path of every config', () => {
    for (const [name, m] of Object.entries(MODELS)) {
      const { failures, folded } = checkStoryPaths(storiesMachine, m.input, explored[name]?.paths ?? [], describePath);
      console.info(`${name}: ${folded} distinct steps checked`);
      expect(failures.slice(0, 3), name).toEqual([]);
    }
  });

  it('the invariants have teeth: they catch a machine that skips the story\'s checks, ignores priority, allows an attempt too many, passes without the judge, keeps an edit of prd.yaml a restore put back, or hands a journey to sh', () => {
    // each machine is given other rules than the user wrote (the oracle reads the user's)
    const caught = (m: GraphModel, change: (input: WorkInput) => WorkInput): string => {
      const input = change(m.input);
      return checkStoryPaths(storiesMachine, input, transitionPaths(storiesMachine, { ...m, input }).paths, describePath, m.input).failures[0] ?? '';
    };
    const skip = MODELS.skip as GraphModel;
    const withoutChecks = (input: WorkInput): WorkInput => ({ ...input, stories: input.stories?.map((s) => ({ ...s, acceptance: s.acceptance?.map((c) => ({ text: c.text })) ?? null })) });
    expect(caught(skip, withoutChecks)).toMatch(/^§8 per-story gates/);
    const byIdAlone = (input: WorkInput): WorkInput => ({ ...input, stories: input.stories?.map((s) => ({ ...s, priority: null })) });
    expect(caught(skip, byIdAlone)).toMatch(/^§8 each worker call works on the ready story/);
    const lenient = (input: WorkInput): WorkInput => ({ ...input, config: { ...input.config, maxStoryAttempts: 2 } });
    expect(caught(skip, lenient)).toMatch(/^§8 (a blocked story is never worked on again|only DONE claims|the run exits 0 exactly)/);
    const review = MODELS.review as GraphModel;
    const unjudged = (input: WorkInput): WorkInput => ({ ...input, config: { ...input.config, review: false } });
    expect(caught(review, unjudged)).toMatch(/^§8 story\.pass is requested only/);
    // a machine that does not restore again after an edit (an older run's) while the oracle expects it
    const { restoresAfterCalls: _flag, ...olderRun } = (MODELS.editedWhileRestoring as GraphModel).input;
    expect(caught(MODELS.editedWhileRestoring as GraphModel, () => olderRun)).toMatch(/^§8\/spec 1\.1 an edit of prd\.yaml journaled while a spec restore was outstanding/);
    const journeys = MODELS.journeys as GraphModel;
    const toShell = (input: WorkInput): WorkInput => ({ ...input, storyJourneys: undefined });
    expect(caught(journeys, toShell)).toMatch(/^§8 per-story gates/);
  });
});
