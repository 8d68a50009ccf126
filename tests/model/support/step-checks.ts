// What is checked after every step of a path executed for real: the machine state and the context
// the guards read (against the pure fold of the path's sample events), the event's payload that
// mattered, the effect requests journaled since the last step, and the files on disk.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { AnyMachineSnapshot } from 'xstate';
import { parsePrd } from '../../../config/prd/parse-prd.js';
import { sha256 } from '../../../effects/fs/blob-store.js';
import { CONTEXT_DIR, DECISIONS_FILE } from '../../../machines/context/context-files.js';
import type { MachineEvent } from '../../../machines/effect-events.js';
import type { EffectRequest } from '../../../machines/effects.js';
import type { WorkContext } from '../../../machines/work/work-context.js';
import { stateText } from '../../../store/fold/state-text.js';
import type { ModelWorld } from './model-world.js';
import { COMMON_FILES } from './model-world.js';
import { notesBody } from './world-script.js';
import type { PlanNode } from './world-plan.js';

/** A guard report's text without how long each check took (the world's clock, not the samples'): `(exit 0, 1.3s)` → `(exit 0, …)`. */
export function withoutDurations(text: string): string {
  return text.replace(/, \d+\.\ds\)$/gm, ', …)');
}

/**
 * Everything of a snapshot that the world's answers decide, minus what only the real world knows
 * (blob hashes, tree ids, durations, transcript names, the notes text logged by a saga).
 */
export function projection(snapshot: AnyMachineSnapshot): unknown {
  const c = snapshot.context as WorkContext;
  return {
    state: stateText(snapshot.value), status: snapshot.status, output: snapshot.output as unknown,
    iteration: c.iteration, maxIterations: c.maxIterations, notesFirstLine: c.notesFirstLine, changed: c.changed, violations: c.violations,
    plan: c.plan, checks: c.checks.map((k) => [k.kind, k.name, k.result.outcome, k.result.exitCode, k.result.excerpt.trim()]),
    agentCalls: c.agentCalls, interruptions: c.interruptions,
    judge: [c.judgeTrigger, c.verdict, c.verdictProblem, c.consecutiveFailures, c.judgments],
    budgets: c.budgets, spent: [c.spent.attempts, c.spent.tokens, c.spent.costUsd, c.spent.unknownUsage], clock: [c.runStartedAt, c.now, c.clockFresh], blockedOn: c.blockedOn,
    outcome: c.outcome, saga: [c.chunk, c.sagaDone, c.subPlanBlank, c.sagaLog.map((e) => e.chunk)],
    goal: [c.lastFingerprint, c.fingerprintRepeats],
    setbacks: [c.rateLimits, c.waitUntil, c.heldFor, c.holdDetail],
    // stories: the list, where each story stands (its commit as "has one": the sha is the repository's), the passing notes
    stories: c.prd === undefined ? null : {
      current: c.prd.current, decisionNotes: c.prd.decisionNotes,
      list: c.prd.stories.map((s) => [s.id, s.passes, s.acceptance?.map((k) => [k.text, k.check ?? null]) ?? null, s.dependsOn]),
      progress: Object.entries(c.prd.progress).map(([id, p]) => [id, p.passed, p.attempts, p.iterations, p.blocked, p.fingerprintRepeats, p.lastFingerprint, p.commit !== null, p.feedback === null ? null : withoutDurations(p.feedback)]),
    },
  };
}

/** Kinds whose params the machine decides from nothing the real world answers differently than the samples. */
const WORLD_VALUED = new Set(['spec.restore', 'boundary.scan', 'file.write']);

const canonical = (value: unknown): string => JSON.stringify(value, (_k, v: unknown) =>
  v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b))) : v);

/** A journaled `effect.started` against the request the pure fold expected next. */
export function requestProblem(expected: EffectRequest | undefined, kind: string, params: unknown): string | null {
  if (!expected) return `the runner started ${kind} but the path expected no further request`;
  if (expected.kind !== kind) return `the runner started ${kind}, the path expected ${expected.kind}`;
  if (WORLD_VALUED.has(kind)) {
    const file = (expected.params as { file?: string }).file;
    if (file !== (params as { file?: string }).file) return `${kind} of ${String((params as { file?: string }).file)}, expected ${String(file)}`;
    return null;
  }
  // A commit's expected HEAD is the real repository's branch and commit: the samples cannot know it.
  // Its decision entry is made of the real notes.md and plan: the samples fix only that there is one.
  // A story's pass commits too; its entry is made of notes the world wrote as the path read them (exactNotes),
  // and the prd.yaml it sets the flag on (`spec`) is the world's backup blob (the samples' baseline names none;
  // storyPassProblems checks the file it committed).
  // A worker's prompt may carry the last attempt's guard report (stories' feedback): its check durations are the world's.
  const decided = kind === 'commit.create' ? entryAsPresence(withoutKey(params, 'head')) : kind === 'story.pass' ? withoutKey(withoutKey(params, 'head'), 'spec') : kind === 'agent.spawn' ? promptDurationFree(params) : params;
  const wanted = kind === 'commit.create' ? entryAsPresence(expected.params) : kind === 'story.pass' ? withoutKey(expected.params, 'spec') : kind === 'agent.spawn' ? promptDurationFree(expected.params) : expected.params;
  if (canonical(wanted) !== canonical(decided)) return `${kind} params ${canonical(params)}, expected ${canonical(expected.params)}`;
  return null;
}

/** Agent call params whose prompt says no check duration. */
function promptDurationFree(params: unknown): unknown {
  const prompt = (params as { prompt?: unknown }).prompt;
  return typeof prompt === 'string' ? { ...(params as Record<string, unknown>), prompt: withoutDurations(prompt) } : params;
}

/** Commit params with the decision entry's text replaced by the fact that there is one. */
function entryAsPresence(params: unknown): unknown {
  const decision = (params as { decision?: unknown }).decision;
  return decision === undefined ? params : { ...(params as Record<string, unknown>), decision: 'an entry' };
}

function withoutKey(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([name]) => name !== key));
}

/** The part of the real event that the sample fixes. */
export function eventProblem(sample: MachineEvent, real: MachineEvent): string | null {
  if (sample.type !== real.type) return `journaled ${real.type}, the path expected ${sample.type}`;
  const same = (what: string, a: unknown, b: unknown): string | null => (canonical(a) === canonical(b) ? null : `${sample.type} ${what} is ${canonical(b)}, expected ${canonical(a)}`);
  switch (sample.type) {
    case 'AGENT_EXITED': {
      const r = (real as typeof sample).result;
      const s = sample.result;
      // what the sample leaves open is what the world's scripted call produces: `ok` for exit 0, yoke's own verdict otherwise
      const classification = s.classification ?? (s.outcome === 'exited' ? (s.exitCode === 0 ? 'ok' : 'crashed') : s.outcome);
      // the setback facts the machine reads, where the sample fixes them
      const fixed = (key: 'detail' | 'retryAfterMs' | 'endedAt'): unknown => (s[key] === undefined ? null : r[key]);
      return same('outcome', [s.outcome, s.exitCode, s.usage, classification, s.detail ?? null, s.retryAfterMs ?? null, s.endedAt ?? null],
        [r.outcome, r.exitCode, r.usage, r.classification, fixed('detail'), fixed('retryAfterMs'), fixed('endedAt')]);
    }
    case 'NOTES_READ':
      return same('first line', sample.result.firstLine, (real as typeof sample).result.firstLine);
    case 'BOUNDARY_SCANNED':
      return same('changed paths', sample.result.changed, (real as typeof sample).result.changed);
    case 'CHECK_FINISHED': {
      const r = (real as typeof sample).result;
      return same('result', [sample.result.outcome, sample.result.exitCode, sample.result.excerpt.trim()], [r.outcome, r.exitCode, r.excerpt.trim()]);
    }
    case 'ACCEPTANCE_CHECKED': {
      const r = (real as typeof sample).result;
      const facts = (result: typeof r) => (result.outcome === 'refused' ? [result.outcome, result.reason]
        : [result.outcome, result.status, result.criteria.map((criterion) => [criterion.name, criterion.status, criterion.exitCode, criterion.excerpt.trim()])]);
      return same('result', facts(sample.result), facts(r));
    }
    case 'CLOCK_READ':
    case 'BUDGET_RAISED':
    case 'SET_MAX_ITERATIONS':
    case 'CONTEXT_READ':
      return same('payload', sample, real);
    case 'STORIES_CHANGED': {
      // what `yoke run` computed from the edited prd.yaml: the list (blob included) and what changed
      const r = real as typeof sample;
      const facts = (e: typeof sample) => [e.stories, e.prdBlob, e.added, e.removed, e.edited, e.reopened];
      return same('change', facts(sample), facts(r));
    }
    case 'STORY_PASSED':
      return same('commit', sample.result.sha !== null, (real as typeof sample).result.sha !== null);
    default:
      return null;
  }
}

const read = (world: ModelWorld, rel: string): string | null => (existsSync(join(world.loopDir, rel)) ? readFileSync(join(world.loopDir, rel), 'utf8') : null);
const git = (world: ModelWorld, ...args: string[]): string => execFileSync('git', args, { cwd: world.project, encoding: 'utf8' });

/** prd.yaml's `passes` flags against the stories the path's machine has passed (only yoke sets them, DESIGN §8). */
function passesProblems(world: ModelWorld, snapshot: AnyMachineSnapshot, blob: string | null): string[] {
  const text = read(world, 'prd.yaml');
  if (text === null) return ['.loop/prd.yaml is gone'];
  const problems: string[] = [];
  if (blob !== null && sha256(text) !== blob) problems.push('.loop/prd.yaml is not the blob yoke journaled as its backup');
  const prd = (snapshot.context as WorkContext).prd;
  const flags = (parsePrd(text, '.loop/prd.yaml').stories ?? []).map((s) => [s.id, s.passes]);
  const passed = (prd?.stories ?? []).map((s) => [s.id, prd?.progress[s.id]?.passed === true]);
  if (JSON.stringify(flags) !== JSON.stringify(passed)) problems.push(`.loop/prd.yaml says passes ${JSON.stringify(flags)}, the path passed ${JSON.stringify(passed)}`);
  return problems;
}

/** The files of a story's pass (DESIGN §8): the flag, the decision entry, and one commit with the work and its trailers. */
function storyPassProblems(world: ModelWorld, node: PlanNode, params: Extract<EffectRequest, { kind: 'story.pass' }>['params'], result: { sha: string | null; prdBlob: string }, cause: string | null, run: string): string[] {
  const problems = passesProblems(world, node.snapshot, result.prdBlob);
  const expect = (ok: boolean, message: string): void => {
    if (!ok) problems.push(message);
  };
  const title = (parsePrd(read(world, 'prd.yaml') ?? '', '.loop/prd.yaml').stories ?? []).find((s) => s.id === params.story)?.title;
  const layer = existsSync(join(world.project, CONTEXT_DIR)) && statSync(join(world.project, CONTEXT_DIR)).isDirectory();
  const ledger = existsSync(join(world.project, DECISIONS_FILE)) ? readFileSync(join(world.project, DECISIONS_FILE), 'utf8') : null;
  if (layer) {
    expect(ledger !== null && ledger.endsWith(params.decision) && ledger.indexOf(params.decision) === ledger.lastIndexOf(params.decision), `${DECISIONS_FILE} does not end with the story's one entry ${JSON.stringify(params.decision)}`);
    expect(params.decision.startsWith(`## `) && params.decision.includes(` — ${params.story}: ${title ?? '?'}\n`), `the decision entry ${JSON.stringify(params.decision)} does not name the story`);
  } else {
    expect(ledger === null, `${DECISIONS_FILE} was written although the project has no ${CONTEXT_DIR}/`);
  }
  if (!params.commit) {
    expect(result.sha === null, 'story.pass committed with commit off');
    return problems;
  }
  if (result.sha === null) return [...problems, 'story.pass made no commit'];
  const head = git(world, 'log', '-1', '--format=%H%n%s%n%b');
  expect(head.startsWith(`${result.sha}\nfeat(${params.story}): ${title ?? '?'}\n`), `HEAD is not the story's commit "feat(${params.story}): ${title ?? '?'}":\n${head}`);
  for (const trailer of [`Yoke-Run: ${run}`, `Yoke-Effect: ${cause ?? '?'}`, `Yoke-Story: ${params.story}`]) expect(head.includes(`\n${trailer}\n`), `HEAD lacks the trailer ${trailer}`);
  const files = git(world, 'show', '--name-only', '--format=', 'HEAD').split('\n');
  for (const file of ['.loop/prd.yaml', 'src/app.ts', ...(layer ? [DECISIONS_FILE] : [])]) expect(files.includes(file), `the story's commit does not carry ${file}`);
  expect(git(world, 'status', '--porcelain', '--', '.loop/prd.yaml', 'src', ...(layer ? [DECISIONS_FILE] : [])) === '', 'the story\'s flag, entry or work is left outside its commit');
  const same = git(world, 'log', '--format=%H', `--grep=^Yoke-Effect: ${cause ?? '?'}$`).split('\n').filter(Boolean);
  expect(same.length === 1, `${same.length} commits carry this story.pass's trailer`);
  return problems;
}
const firstLine = (text: string | null): string | null => (text === null ? null : (text.split('\n', 1)[0] ?? '').trimEnd() || null);

/** The files on disk after the step into `node`: `real` answered the journaled request `answered` (effect key `cause`). */
export function fileProblems(world: ModelWorld, node: PlanNode, answered: EffectRequest | null, real: MachineEvent, cause: string | null, run: string): string[] {
  const problems: string[] = [];
  const expect = (ok: boolean, message: string): void => {
    if (!ok) problems.push(message);
  };
  // what the machine knew when it asked for this step's effect (it may have moved on to the next iteration since)
  const context = (node.parent ?? node).snapshot.context as WorkContext;
  switch (real.type) {
    case 'AGENT_EXITED':
      expect(existsSync(join(world.loopDir, real.result.transcript)), `no transcript .loop/${real.result.transcript}`);
      break;
    case 'SPEC_RESTORED':
      if (answered?.kind === 'spec.restore') {
        // the version the run held when the restore ran (`held`: an edit journaled after it was decided), else the one it names
        const held: Readonly<Record<string, string | null>> = real.result.held ?? {};
        for (const [name, decided] of Object.entries(answered.params.specFiles)) {
          const hash = Object.hasOwn(held, name) ? held[name] ?? null : decided;
          const content = read(world, name);
          expect(hash === null ? content === null : content !== null && sha256(content) === hash, `.loop/${name} was not restored to its backup`);
        }
      }
      expect(read(world, 'protocol.md') === COMMON_FILES['.loop/protocol.md'], '.loop/protocol.md still holds what the worker scribbled');
      // a restore decided before an edit of prd.yaml (restoreAgain) put the old file back: the next one puts the edit back
      if (answered?.kind === 'spec.restore' && 'prd.yaml' in answered.params.specFiles && context.restoreAgain !== true) problems.push(...passesProblems(world, node.snapshot, null));
      break;
    case 'NOTES_RESET': {
      const notes = read(world, 'notes.md') ?? '';
      expect(firstLine(notes) === 'STATUS: IN_PROGRESS', `notes.md starts with ${JSON.stringify(firstLine(notes))} after the reset`);
      expect((notes.split('\n')[1] ?? '').startsWith(notesBody), 'the reset lost the rest of notes.md');
      break;
    }
    case 'FILE_WRITTEN':
      if (answered?.kind === 'file.write') {
        const content = read(world, answered.params.file);
        expect(content !== null && sha256(content) === real.result.sha256, `.loop/${answered.params.file} is not what yoke wrote`);
        if (answered.params.file === 'guard-results.md') {
          expect(content?.startsWith(`# Guard results — iteration ${context.iteration} of ${context.maxIterations}\n`) === true, 'guard-results.md names another iteration');
          if (context.violations.length > 0) expect(content?.includes('## Boundary check: FAILED') === true && content.includes('vendor/lib.js'), 'guard-results.md does not report the boundary violation');
          const failed = context.checks.filter((k) => k.kind !== 'periodic' && k.result.exitCode !== 0).map((k) => k.name);
          if (context.violations.length === 0 && failed.length > 0) expect(content?.includes(`FAILED: ${failed.join(', ')}.`) === true, `guard-results.md does not name the failed checks ${failed.join(', ')}`);
        }
        if (answered.params.file === 'saga-log.md') {
          for (const entry of context.sagaLog) expect(content?.includes(`## Chunk ${entry.chunk}\n`) === true, `saga-log.md has no "## Chunk ${entry.chunk}"`);
          expect(content?.includes(notesBody) === true || context.sagaLog.length === 0, 'saga-log.md lacks the chunk notes');
        }
      }
      break;
    case 'FILE_INSPECTED':
      if (answered?.kind === 'file.inspect') {
        const content = read(world, answered.params.file);
        expect((content !== null) === real.result.exists && firstLine(content) === real.result.firstLine, `.loop/${answered.params.file} does not match what yoke saw`);
      }
      break;
    case 'STORY_PASSED':
      if (answered?.kind === 'story.pass') problems.push(...storyPassProblems(world, node, answered.params, real.result, cause, run));
      break;
    case 'STORIES_CHANGED':
      problems.push(...passesProblems(world, node.snapshot, real.prdBlob));
      break;
    case 'COMMITTED': {
      expect(real.result.sha !== null, 'commit.create found nothing to commit');
      if (real.result.sha !== null) {
        const head = execFileSync('git', ['log', '-1', '--format=%H%n%B'], { cwd: world.project, encoding: 'utf8' });
        expect(head.startsWith(real.result.sha), 'the commit is not HEAD');
        expect(head.includes(`\nYoke-Run: ${run}\n`) && head.includes(`\nYoke-Effect: ${cause ?? '?'}\n`), `HEAD lacks the Yoke-Run / Yoke-Effect trailers of ${cause ?? '?'}`);
      }
      break;
    }
    default:
      break;
  }
  return problems;
}
