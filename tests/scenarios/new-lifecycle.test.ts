// Adding a lifecycle is its own files plus one registry line (DESIGN §7, issue 11). A throwaway
// lifecycle, `sprint`, is written here the way a new one would be — a descriptor around a machine
// built from the shared work states — and "registered" by appending it to the registry's list. Every
// surface that used to ask "which mode?" then serves it through the injection it already has, with
// no other module changed: config validation (the catalog), init templates (the descriptor's files),
// the run input (its prompts), agent availability (its roles), progress wording (its unit: the
// start, resume, progress and finish lines), the commit message (its machine's options), the
// `init`/`mode` help (its summary) and the fleet's `queue add --mode` choices (its trait).
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { lifecycleTemplates, readCanonBytes } from '../../cli/canon.js';
import { lifecyclesHelp } from '../../cli/lifecycle-help.js';
import { buildProgram } from '../../cli/program.js';
import { describeProgress } from '../../cli/progress.js';
import { planLines } from '../../cli/run-plan-text.js';
import type { LifecycleCatalog } from '../../config/lifecycle-catalog.js';
import { parseConfig } from '../../config/parse-config.js';
import type { Config } from '../../config/types.js';
import { usedBuiltInAgents } from '../../effects/adapters/agent-availability.js';
import { completionEvent } from '../../machines/effect-events.js';
import type { EffectKind, EffectResult } from '../../machines/effects.js';
import type { LifecycleDescriptor } from '../../machines/lifecycles/lifecycle-descriptor.js';
import { LIFECYCLE_REGISTRY } from '../../machines/lifecycles/registry.js';
import { workLifecycle } from '../../machines/lifecycles/work-lifecycle.js';
import { createWorkMachine } from '../../machines/work/work-machine.js';
import type { JournalRecord, RecordDraft } from '../../store/journal/record.js';
import { RunFold } from '../../store/fold/run-fold.js';
import { planRun } from '../../store/session/plan-run.js';

// ---- the new lifecycle's own file (machines/lifecycles/sprint.ts) --------------------------------
const SPRINT = { name: 'sprint', unit: 'round', planFile: 'backlog.md' } as const;
const sprintMachine = createWorkMachine({ ...SPRINT, judged: true });
const sprintLifecycle = workLifecycle({
  ...SPRINT,
  summary: 'rounds over backlog.md, each DONE reviewed by a judge',
  machine: sprintMachine,
  version: 1,
  prompts: { worker: ['prompts/worker.md'], judge: ['prompts/judge.md'] },
  features: ['judged'],
  fleet: true,
  init: {
    files: { 'yoke.conf': 'init/sprint/yoke.conf', 'backlog.md': 'init/sprint/backlog.md', 'notes.md': 'init/loop/notes.md', '.gitignore': 'init/loop/gitignore' },
    spec: ['backlog.md', 'yoke.conf'],
  },
});
/** Its own canon files (canon/init/sprint/), served in place of files the repository does not ship. */
const SPRINT_CANON: Record<string, string> = {
  'init/sprint/yoke.conf': 'mode sprint\nagent claude\nmax-iterations 4\n',
  'init/sprint/backlog.md': '# Backlog\n',
};
const readCanon = (path: string): Buffer => (path in SPRINT_CANON ? Buffer.from(SPRINT_CANON[path] ?? '') : readCanonBytes(path));

// ---- the one registry line -----------------------------------------------------------------------
const REGISTRY: readonly LifecycleDescriptor[] = [...LIFECYCLE_REGISTRY, sprintLifecycle];
const CATALOG: LifecycleCatalog = REGISTRY;

function parse(text: string, catalog: LifecycleCatalog = CATALOG) {
  return parseConfig(text, '.loop/yoke.conf', catalog);
}

function sprintConfig(lines: readonly string[]): Config {
  const { config, issues } = parse(`${['mode sprint', ...lines].join('\n')}\n`);
  if (!config || issues.length > 0) throw new Error(`the sprint config does not parse cleanly: ${JSON.stringify(issues)}`);
  return config;
}

describe('a lifecycle added with its own files and one registry line', () => {
  it('is a mode config validation accepts, with the directives its roles and features make apply', () => {
    expect(parse('mode sprint\nagent claude\njudge-agent codex\njudge-every 2\n')).toMatchObject({ config: { mode: 'sprint', judgeEvery: 2 }, issues: [] });
    // without the registry line it is unknown
    expect(parse('mode sprint\nagent claude\n', LIFECYCLE_REGISTRY).issues[0]?.message).toBe('`sprint` is not a mode');
    // a typo is matched against it, and the lists in messages name it
    expect(parse('mode sprnt\nagent claude\n').issues[0]?.hint).toMatch(/did you mean `sprint`\?/);
    expect(parse('agent claude\n').issues[0]?.hint).toBe('add `mode loop` (or brute, saga, goal, stories, sprint) as the first line');
    const [chunks] = parse('mode sprint\nagent claude\nmax-chunks 3\n').issues;
    expect(chunks).toMatchObject({ severity: 'warning', message: '`max-chunks` has no effect in sprint mode', hint: 'it applies in saga mode; remove it or change the mode' });
    expect(parse('mode loop\nagent claude\njudge-model opus\n').issues[0]?.hint).toBe('it applies in brute, saga, stories and sprint modes; remove it or change the mode');
  });

  it('has init templates that make a workspace of its mode', () => {
    const templates = lifecycleTemplates(sprintLifecycle, readCanon);
    expect(Object.keys(templates.files).sort()).toEqual(['.gitignore', 'backlog.md', 'notes.md', 'yoke.conf']);
    expect(templates.spec).toEqual(['backlog.md', 'yoke.conf']);
    expect(parse(templates.files['yoke.conf']?.toString('utf8') ?? '')).toMatchObject({ config: { mode: 'sprint' }, issues: [] });
  });

  it('builds its run input from its own prompts and spec files', () => {
    const config = sprintConfig(['agent claude']);
    const input = sprintLifecycle.input(config, (path) => `<${path}>`, '/project/.loop');
    expect(input).toEqual({ config, workerPrompt: '<prompts/worker.md>', judgePrompt: '<prompts/judge.md>', loopDir: '/project/.loop', specFiles: ['backlog.md', 'yoke.conf'], restoresAfterCalls: true });
  });

  it('has its roles checked for agent availability', () => {
    const config = sprintConfig(['agent claude', 'judge-agent codex']);
    expect([...usedBuiltInAgents(config, sprintLifecycle.rolesCalled(config))]).toEqual([['claude', ['worker']], ['codex', ['judge']]]);
  });

  it('is worded with its unit in progress lines and commit messages, and its summary in the help of init and mode', () => {
    const config = sprintConfig(['agent cmd ./agent.sh', 'guard tests true', 'commit each', 'max-iterations 4']);
    const run = runOf(sprintLifecycle, sprintLifecycle.input(config, (path) => `<${path}>`, '/project/.loop'));
    run.complete({ tree: 'tree-0', specFiles: {} });
    run.complete({ restored: [], displaced: {} });
    expect(run.startNext()).toBe('round 1/4: worker started');
    run.complete({ outcome: 'exited', exitCode: 0, signal: null, durationMs: 1_000, usage: null, transcript: 'worker.log' }, 'round 1/4: worker exited 0 after 1.0s (transcript .loop/worker.log)');
    run.complete({ restored: [], displaced: {} });
    run.complete({ firstLine: 'STATUS: IN_PROGRESS' });
    run.complete({ changed: [] });
    run.complete({ outcome: 'exited', exitCode: 0, signal: null, durationMs: 10, excerpt: '' }, 'round 1/4: guard tests: pass (0.0s)');
    run.complete({ sha256: 'f'.repeat(64) });
    expect(run.next().request).toEqual({ kind: 'commit.create', params: { message: 'yoke: round 1', iteration: 1 } });
    // the lines that end a run count rounds, from its descriptor's wording
    expect(run.line({ type: 'run.finished', payload: { state: 'done', exitCode: 0, reason: 'judge-pass' } })).toBe('done after 1 round(s): DONE, every guard passed, and the judge said PASS');
    expect(run.line({ type: 'run.finished', payload: { state: 'exhausted', exitCode: 1, reason: 'max-iterations' } })).toBe('stopped: reached max-iterations (4) without success');

    // so do the lines that start and resume one
    const plan = planRun([], { fresh: false, start: { lifecycle: sprintLifecycle, input: sprintLifecycle.input(config, (path) => `<${path}>`, '/project/.loop'), argv: ['run'] }, runId: 'RUN1', pid: 1, readLoopFile: () => null });
    expect(planLines(plan, sprintLifecycle.unit)).toEqual(['started run RUN1 (sprint, at most 4 rounds)']);
    expect(planLines({ kind: 'resume', run: 'RUN1', iteration: 2, state: 'working' }, sprintLifecycle.unit)).toEqual(['resuming run RUN1 at round 2 (state working)']);

    const program = buildProgram(['node', 'yoke'], () => undefined, REGISTRY);
    for (const name of ['init', 'mode']) {
      const command = program.commands.find((candidate) => candidate.name() === name);
      let help = '';
      command?.configureOutput({ writeOut: (text) => { help += text; } });
      command?.outputHelp();
      expect(help).toMatch(/^ {2}mode +loop \| brute \| saga \| goal \| stories \| sprint$/m);
      expect(help).toContain(lifecyclesHelp(REGISTRY));
      expect(help).toMatch(/^ {2}sprint +rounds over backlog\.md, each DONE reviewed by a judge$/m);
    }
    const queueAdd = program.commands.find((candidate) => candidate.name() === 'queue')?.commands.find((candidate) => candidate.name() === 'add');
    expect(queueAdd?.options.find((option) => option.long === '--mode')?.argChoices).toEqual(['goal', 'stories', 'sprint']);
  }, 20_000);
});

/** A run of `lifecycle` folded in memory from records staged by hand (no journal), for its progress lines. */
function runOf(lifecycle: LifecycleDescriptor, input: unknown) {
  const run = ulid();
  let seq = 0;
  const record = (draft: Omit<RecordDraft, 'run' | 'machine' | 'mv'>): JournalRecord => {
    seq += 1;
    return { v: 1, seq, id: ulid(), ts: '2026-01-01T00:00:00.000Z', run, machine: lifecycle.name, mv: lifecycle.version, prev: '0'.repeat(64), ...draft } as JournalRecord;
  };
  const started = record({ type: 'run.started', payload: { mode: lifecycle.name, input, argv: ['run'] } });
  if (started.type !== 'run.started') throw new Error('unreachable');
  const fold = new RunFold(lifecycle.machine, started);
  const progress = (line: JournalRecord) => describeProgress(line, fold, lifecycle);
  const next = () => {
    const keyed = fold.outstanding.find((candidate) => candidate.request.kind !== 'hook.fire');
    if (!keyed) throw new Error('nothing outstanding');
    return keyed;
  };
  const startNext = (): string | null => {
    const { key, request } = next();
    const line = record({ type: 'effect.started', payload: { key, kind: request.kind, params: request.params, attempt: 1 } });
    fold.apply(line);
    return progress(line);
  };
  /** Start (if not yet) and complete the oldest request with `result`; `expected` is the progress line of its completion. */
  const complete = (result: unknown, expected?: string): void => {
    const { key, request } = next();
    if ((fold.effects.get(key)?.attempts ?? 0) === 0) startNext();
    const done = record({ type: 'effect.completed', payload: { key, kind: request.kind, result } });
    fold.apply(done);
    if (expected !== undefined) expect(progress(done)).toBe(expected);
    const event = completionEvent(request, result as EffectResult<EffectKind>);
    if (event) fold.apply(record({ type: 'event', payload: { cause: key, event } }));
  };
  /** The progress line of a record staged now (not applied: a run.finished ends nothing here). */
  const line = (draft: Omit<RecordDraft, 'run' | 'machine' | 'mv'>): string | null => progress(record(draft));
  return { next, startNext, complete, line };
}
