// The stories machine's graph models whose paths are executed for real (tests/model/stories-paths.test.ts):
// small prd.yaml files whose `check` criteria are the scripted check, configs with caps of 1–3,
// and the samples each must tell apart. Each model's prd.yaml (and context layer) is its own
// template world; the run input is what `yoke run` builds from them (the lifecycle's own `input`).
//
// Outside inputs: an edit of prd.yaml between runs is a sample whose event is what `yoke run`
// journals for it (STORIES_CHANGED, computed with the real parser from the text the world writes);
// the models say where such an edit is explored, and a path where it cannot happen as sampled (the
// run's story list would give another change, or none) is left out (`fits`).
import type { AnyMachineSnapshot } from 'xstate';
import { readCanon } from '../../../cli/canon.js';
import { parseConfig } from '../../../config/parse-config.js';
import { parsePrd } from '../../../config/prd/parse-prd.js';
import { setStoryPasses } from '../../../config/prd/set-story-passes.js';
import { sha256 } from '../../../effects/fs/blob-store.js';
import { contextBlock } from '../../../machines/context/context-block.js';
import { CONTEXT_DIR, CONTEXT_FILES, DEFAULT_CONTEXT_BUDGET } from '../../../machines/context/context-files.js';
import type { MachineEvent } from '../../../machines/effect-events.js';
import { LIFECYCLE_REGISTRY } from '../../../machines/lifecycles/registry.js';
import { storiesLifecycle } from '../../../machines/lifecycles/stories.js';
import { storiesChange, type StoriesChange } from '../../../machines/stories/stories-change.js';
import type { WorkContext, WorkInput } from '../../../machines/work/work-context.js';
import { makeCheckResult } from '../../machines/support/loop-driver.js';
import { serializeStories } from '../../machines/support/stories-input.js';
import type { Sample } from '../../machines/support/work-graph.js';
import { BUDGET_SAMPLES, CONTEXT_RUN, ITERATION_SAMPLES, SETBACK_SAMPLES, VERDICT_SAMPLES, VIOLATION_SAMPLE, T0 } from '../../machines/support/work-samples.js';
import type { ExecutionModel } from './run-path-models.js';
import type { PlanOptions } from './world-plan.js';
import { checkCommand } from './world-script.js';

/** A story criterion proved by the scripted check `<id>#<n>` (the name yoke gives a story's nth criterion). */
const check = (name: string): string => `"${checkCommand(name)}"`;

/** One story with one check. */
const ONE_STORY = `stories:
  - id: S1
    title: Parser
    acceptance:
      - text: parses
        check: ${check('S1#1')}
`;

/** S2 builds on S1; S2's first criterion is text only, its second is checked. */
const TWO_STORIES = `stories:
  - id: S1
    title: Parser
    priority: 1
    acceptance:
      - text: parses
        check: ${check('S1#1')}
  - id: S2
    title: Printer
    priority: 2
    depends-on: [S1]
    acceptance:
      - prints
      - text: printed
        check: ${check('S2#2')}
`;

/** S2 waits on S1; S3 (no dependency, a later priority) can pass while S1 is blocked. */
const THREE_STORIES = `stories:
  - id: S1
    title: Parser
    priority: 1
    acceptance:
      - text: parses
        check: ${check('S1#1')}
  - id: S2
    title: Printer
    priority: 2
    depends-on: [S1]
    acceptance: [prints]
  - id: S3
    title: Docs
    priority: 9
    acceptance:
      - text: documented
        check: ${check('S3#1')}
`;

/** S0 passed in an earlier run; S1 (after S0) has no criteria: the line stops on it. */
const VAGUE = `stories:
  - id: S0
    title: Done before
    acceptance: [was done]
    passes: true
  - id: S1
    title: Vague
    depends-on: [S0]
`;

/** VAGUE as the user fixes it while the line is stopped: S1 gets a checked criterion, and a story S2 is added. */
const VAGUE_FIXED = `stories:
  - id: S0
    title: Done before
    acceptance: [was done]
    passes: true
  - id: S1
    title: Vague
    depends-on: [S0]
    acceptance:
      - text: now clear
        check: ${check('S1#1')}
  - id: S2
    title: Follow-up
    acceptance: [later]
`;

/** Two independent stories: S1 first. */
const PAIR = `stories:
  - id: S1
    title: Parser
    priority: 1
    acceptance:
      - text: parses
        check: ${check('S1#1')}
  - id: S2
    title: Printer
    priority: 2
    acceptance:
      - text: prints
        check: ${check('S2#1')}
`;

/** PAIR after S1 passed, as the user edits it between runs: S1's criterion changes (it must pass again). */
const PAIR_REOPENED = edited(setStoryPasses(PAIR, 'S1', true) ?? '', '- text: parses\n', '- text: parses fast\n');

/** `text` with `from` replaced by `to` (throws when `from` is not there: the edit would change nothing). */
function edited(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`no ${JSON.stringify(from)} in ${text}`);
  return text.replace(from, to);
}

/** ONE_STORY as the user edits it while the judge's restore is outstanding: S1 gets a second criterion (text only). */
const ONE_STORY_MORE = `${ONE_STORY}      - reads fast\n`;

/** The project's context layer: PROJECT.md only (DECISIONS.md is yoke's to start). */
const PROJECT_MD = '# Project\n\nA parser and a printer for the widget format.\n';

/**
 * An edit of prd.yaml between runs: the user leaves `text`; `yoke run` journals `change` with the
 * list as it then is (a reopened story set back to `passes: false` in the file) and its blob.
 */
function prdEdit(text: string, change: StoriesChange, when?: Sample['when']): Sample & { text: string } {
  let written = text;
  for (const id of change.reopened) written = setStoryPasses(written, id, false) ?? written;
  const stories = parsePrd(written, '.loop/prd.yaml').stories;
  if (!stories) throw new Error(`the edited prd.yaml does not parse: ${text}`);
  return { text, event: { type: 'STORIES_CHANGED', stories, prdBlob: sha256(written), ...change }, ...(when ? { when } : {}) };
}

/** `.yoke/context/` read before an agent call: PROJECT.md's block, and the files yoke holds during the call. */
function contextRead(files: Partial<Record<(typeof CONTEXT_FILES)[number], string>>): Sample {
  const { block, shares } = contextBlock(CONTEXT_FILES.map((name) => ({ name, text: files[name] ?? null })), DEFAULT_CONTEXT_BUDGET);
  const result = {
    block,
    files: CONTEXT_FILES.map((name) => ({ name, bytes: files[name] === undefined ? null : Buffer.byteLength(files[name]), injected: shares.find((s) => s.name === name)?.injected ?? 0 })),
    guard: { 'PROJECT.md': files['PROJECT.md'] === undefined ? null : sha256(files['PROJECT.md']), 'DECISIONS.md': files['DECISIONS.md'] === undefined ? null : sha256(files['DECISIONS.md']) },
  };
  return { event: { type: 'CONTEXT_READ', result } };
}

const STORY_SAMPLES: Record<string, Sample> = {
  ...ITERATION_SAMPLES, ...VIOLATION_SAMPLE, ...VERDICT_SAMPLES, ...BUDGET_SAMPLES, ...SETBACK_SAMPLES,
  'CHECK_FINISHED(fail, other)': { event: { type: 'CHECK_FINISHED', result: makeCheckResult(1, 'another failure') } },
  // a passing story: the clock for its decision entry, its notes (a `Decision:` line to summarize), its commit
  'CLOCK_READ(T0)': { event: { type: 'CLOCK_READ', result: { now: T0 } } },
  'FILE_READ(notes)': { event: { type: 'FILE_READ', result: { content: 'STATUS: DONE\nDecision: one line at a time\n' } } },
  'STORY_PASSED': { event: { type: 'STORY_PASSED', result: { sha: 'c0ffee', branch: 'main', prdBlob: 'b'.repeat(64) } } },
  'STORY_PASSED(commit off)': { event: { type: 'STORY_PASSED', result: { sha: null, prdBlob: 'b'.repeat(64) } } },
  'CONTEXT_READ(PROJECT.md)': contextRead({ 'PROJECT.md': PROJECT_MD }),
  // budget: the worker's second admission (after an interruption) and the judge's read the clock two minutes on
  'AGENT_INTERRUPTED(worker)': { event: { type: 'AGENT_INTERRUPTED', reason: 'SIGINT' }, when: (state) => state === '"working"' },
  'CLOCK_READ(T0+2m, admission)': { event: { type: 'CLOCK_READ', result: { now: T0 + 120_000 } }, when: (state) => /"(worker|judge)Clock"/.test(state) },
};

const EDITS = {
  'prd.yaml edited(S1 criteria, S2 added)': prdEdit(VAGUE_FIXED, { added: ['S2'], removed: [], edited: ['S1'], reopened: [] }, (state) => state.includes('stoppedLine')),
  // explored only where the models' `allow` says (the one-step extensions try it everywhere it fits)
  'prd.yaml edited(S1 reopened)': prdEdit(PAIR_REOPENED, { added: [], removed: [], edited: ['S1'], reopened: ['S1'] }),
  'prd.yaml edited(S1 criterion added)': prdEdit(ONE_STORY_MORE, { added: [], removed: [], edited: ['S1'], reopened: [] }),
};

/** The named samples (throws on a name no sample has). */
function pick(...names: string[]): Record<string, Sample> {
  const all: Record<string, Sample> = { ...STORY_SAMPLES, ...EDITS };
  return Object.fromEntries(names.map((name) => {
    const sample = all[name];
    if (!sample) throw new Error(`no sample ${name}`);
    return [name, sample];
  }));
}

/** The results of the effects every story iteration has, whatever the world did. */
const PLUMBING = ['BASELINE_CAPTURED', 'SPEC_RESTORED', 'FILE_WRITTEN'];
/** `yoke run --max-iterations 1` on the stopped run, tried as a one-step extension from every vertex (one model is enough). */
const CAP = ['SET_MAX_ITERATIONS(1)'];
const WORKER = ['AGENT_EXITED', 'NOTES_READ(DONE)', 'NOTES_READ(IN_PROGRESS)', 'BOUNDARY_SCANNED(clean)'];
const PASS = ['CLOCK_READ(T0)', 'FILE_READ(notes)', 'STORY_PASSED'];
const JUDGE = ['VERDICT_STAMP', 'VERDICT(PASS)', 'VERDICT(FAIL)', 'NOTES_RESET'];
const SETBACKS = ['AGENT_EXITED(rate-limited, retry 1 ms)', 'AGENT_EXITED(auth-error)', 'WAITED', 'AGENT_RETRY'];

/**
 * The run input `yoke run` builds for `conf` (lines after `mode stories` and the agent) and prd.yaml's
 * `prd`; `older`: as a run journaled before the spec was restored after every agent call.
 */
function storiesRun(conf: readonly string[], prd: string, extra: Partial<WorkInput> = {}, older = false): WorkInput {
  const { config, issues } = parseConfig(`${['mode stories', 'agent cmd ./fake-agent.sh', ...conf].join('\n')}\n`, '.loop/yoke.conf', LIFECYCLE_REGISTRY);
  if (config === null || issues.length > 0) throw new Error(`stories model config does not parse: ${JSON.stringify(issues)}`);
  const { restoresAfterCalls, ...input } = storiesLifecycle.input(config, readCanon, '/project/.loop', (name) => (name === 'prd.yaml' ? prd : null));
  if ((input.stories ?? []).length === 0) throw new Error('the model prd.yaml has no stories');
  return { ...input, ...(older || restoresAfterCalls === undefined ? {} : { restoresAfterCalls }), ...extra };
}

/** An edit fits where `yoke run` would journal exactly it: the same change against the run's story list (and not none). */
function editFits(before: AnyMachineSnapshot, event: MachineEvent): boolean {
  if (event.type !== 'STORIES_CHANGED') return true;
  const prd = (before.context as WorkContext).prd;
  if (!prd) return false;
  const passed = new Set(Object.entries(prd.progress).filter(([, p]) => p.passed).map(([id]) => id));
  const change = storiesChange(prd.stories, passed, event.stories);
  return change !== null && JSON.stringify(change) === JSON.stringify({ added: event.added, removed: event.removed, edited: event.edited, reopened: event.reopened });
}

const PLAN: PlanOptions = { exactNotes: true, fits: editFits };

function model(conf: readonly string[], prd: string, names: string[][], more: Partial<ExecutionModel> & { extra?: Partial<WorkInput>; older?: boolean } = {}): ExecutionModel {
  const samples = pick(...names.flat());
  const prdEdits = new Map(Object.values(samples).flatMap((s) => ('text' in s && typeof s.text === 'string' ? [[s.event, s.text] as const] : [])));
  const { extra, files, older, ...rest } = more;
  return {
    input: storiesRun(conf, prd, extra, older),
    samples,
    serialize: serializeStories,
    files: { '.loop/prd.yaml': prd, ...files },
    plan: { ...PLAN, prdEdits },
    ...rest,
  };
}

export const STORIES_MODELS: Record<string, ExecutionModel> = {
  /**
   * two stories in order, S2 after S1: a guard, the story's own check, a boundary; a failed DONE that
   * does not block yet (two attempts); each passing story its own commit
   */
  gates: model(
    ['max-iterations 2', 'max-story-attempts 2', 'no-modify vendor/', 'guard tests npm test'],
    TWO_STORIES, [PLUMBING, WORKER, ['CHECK_FINISHED(pass)', 'CHECK_FINISHED(fail)', 'BOUNDARY_SCANNED(violation)'], PASS],
  ),
  /** `on-story-blocked stop`: one failed DONE blocks S1 (max-story-attempts 1) and ends the run */
  blockedStop: model(
    ['max-iterations 2', 'max-story-attempts 1', 'on-story-blocked stop'],
    ONE_STORY, [PLUMBING, CAP, WORKER, ['CHECK_FINISHED(pass)', 'CHECK_FINISHED(fail)'], PASS],
  ),
  /** `on-story-blocked skip`: S1 blocked, S3 still passes (commit off), S2 waits on S1 for ever */
  blockedSkip: model(
    ['max-iterations 3', 'max-story-attempts 1', 'on-story-blocked skip', 'commit off'],
    THREE_STORIES, [PLUMBING, ['AGENT_EXITED', 'NOTES_READ(DONE)', 'BOUNDARY_SCANNED(clean)', 'CHECK_FINISHED(pass)', 'CHECK_FINISHED(fail)'], ['CLOCK_READ(T0)', 'FILE_READ(notes)', 'STORY_PASSED(commit off)']],
  ),
  /** the same failure three times in a row blocks S1 before max-story-attempts; a different failure is progress */
  noProgress: model(
    ['max-iterations 3', 'max-story-attempts 5'],
    ONE_STORY, [PLUMBING, ['AGENT_EXITED', 'NOTES_READ(DONE)', 'BOUNDARY_SCANNED(clean)', 'CHECK_FINISHED(fail)', 'CHECK_FINISHED(fail, other)']],
  ),
  /**
   * `review on`: the judge before every pass (PASS, FAIL, a verdict it did not write); a FAIL resets
   * the notes; the judge interrupted; prd.yaml edited while the restore after the first judge's call
   * is outstanding (that restore, decided before the edit, puts back prd.yaml as the run holds it
   * when it runs: the edit; the run restores again all the same)
   */
  review: model(
    ['max-iterations 2', 'max-story-attempts 2', 'review on'],
    ONE_STORY, [PLUMBING, ['AGENT_EXITED', 'NOTES_READ(DONE)', 'BOUNDARY_SCANNED(clean)', 'CHECK_FINISHED(pass)'], JUDGE, ['VERDICT(missing)', 'AGENT_INTERRUPTED'], PASS, ['prd.yaml edited(S1 criterion added)']],
    { allow: (snapshot, event) => event.type !== 'STORIES_CHANGED' || judgeRestorePoint(snapshot) },
  ),
  /**
   * the worker's and the judge's calls hit a rate limit or cannot authenticate; each retries its own
   * call. As a run journaled before the spec was restored after every call (its worker leaves
   * prd.yaml alone: such a run restores it only before the next iteration)
   */
  setbacks: model(
    ['max-iterations 1', 'review on'],
    ONE_STORY, [PLUMBING, ['AGENT_EXITED', 'NOTES_READ(DONE)', 'BOUNDARY_SCANNED(clean)', 'CHECK_FINISHED(pass)', 'VERDICT_STAMP', 'VERDICT(PASS)'], SETBACKS, PASS],
    { older: true, planFile: null },
  ),
  /** admission before the worker and the judge: a clock two minutes on breaks wall-minutes until it is raised */
  budget: model(
    ['max-iterations 1', 'review on', 'budget wall-minutes 1'],
    ONE_STORY, [PLUMBING, ['AGENT_EXITED', 'AGENT_INTERRUPTED(worker)', 'NOTES_READ(DONE)', 'BOUNDARY_SCANNED(clean)', 'CHECK_FINISHED(pass)', 'VERDICT_STAMP', 'VERDICT(PASS)'],
      ['CLOCK_READ(T0)', 'CLOCK_READ(T0+2m, admission)', 'BUDGET_RAISED(wall-minutes 10)', 'FILE_READ(notes)', 'STORY_PASSED']],
    // the first reading starts the wall clock: only a later one can be two minutes on
    { allow: (snapshot, event) => event !== STORY_SAMPLES['CLOCK_READ(T0+2m, admission)']?.event || (snapshot.context as WorkContext).runStartedAt !== null },
  ),
  /**
   * the context layer (DESIGN §9), as a new run with `.yoke/context/` journals it: PROJECT.md read
   * before the worker's and the judge's call and opening their prompts, the pass's DECISIONS.md
   * entry in the story's commit
   */
  context: model(
    ['max-iterations 2', 'max-story-attempts 2', 'review on'],
    ONE_STORY, [PLUMBING, WORKER, ['CHECK_FINISHED(pass)'], ['VERDICT_STAMP', 'VERDICT(PASS)', 'VERDICT(FAIL)', 'NOTES_RESET'], PASS, ['CONTEXT_READ(PROJECT.md)']],
    { extra: { contextLayer: { run: CONTEXT_RUN, inject: true } }, files: { [`${CONTEXT_DIR}/PROJECT.md`]: PROJECT_MD } },
  ),
  /** Stop-the-Line: held before any agent call; `yoke run` after prd.yaml is fixed journals the edit and goes on */
  stopLine: model(
    ['max-iterations 1'],
    VAGUE, [PLUMBING, WORKER, ['CHECK_FINISHED(pass)', 'CHECK_FINISHED(fail)', 'AGENT_RETRY', 'prd.yaml edited(S1 criteria, S2 added)'], PASS],
  ),
  /**
   * prd.yaml edited between runs: after S1 passed, the user changes its criterion while the run is
   * stopped; `yoke run` reopens S1 (passes: false in the file), which must pass again
   */
  reopened: model(
    ['max-iterations 3'],
    PAIR, [PLUMBING, ['AGENT_EXITED', 'NOTES_READ(DONE)', 'BOUNDARY_SCANNED(clean)', 'CHECK_FINISHED(pass)'], PASS, ['prd.yaml edited(S1 reopened)']],
    { allow: (snapshot, event) => event.type !== 'STORIES_CHANGED' || reopenPoint(snapshot) },
  ),
  /** every story passed already (an import carried `passes: true`): the run is done at once */
  allPassed: model(['max-iterations 1'], setStoryPasses(ONE_STORY, 'S1', true) ?? '', [PLUMBING]),
};

/**
 * Where the reopening edit is explored (the paths go on after it): S1 passed, and S2's worker is
 * about to run, or its spec restore before or after the call is outstanding. Such a restore was
 * decided before the edit (its request names the old prd.yaml: S1 `passes: true`, the old criterion)
 * and puts back the version the run holds when it runs, the edit; the run then restores again
 * before anything else.
 */
function reopenPoint(snapshot: AnyMachineSnapshot): boolean {
  const prd = (snapshot.context as WorkContext).prd;
  return prd?.progress.S1?.passed === true && prd.current === 'S2' && ['"working"', '"restoring"', '"restoringAfterWorker"'].includes(JSON.stringify(snapshot.value));
}

/** Where the review model's edit is explored: the first judge's call is over and its restore outstanding, S1 as the user first wrote it. */
function judgeRestorePoint(snapshot: AnyMachineSnapshot): boolean {
  const context = snapshot.context as WorkContext;
  return context.iteration === 1 && context.prd?.stories[0]?.acceptance?.length === 1 && JSON.stringify(snapshot.value) === '"restoringAfterJudge"';
}
