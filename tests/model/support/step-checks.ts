// What is checked after every step of a path executed for real: the machine state and the context
// the guards read (against the pure fold of the path's sample events), the event's payload that
// mattered, the effect requests journaled since the last step, and the files on disk.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AnyMachineSnapshot } from 'xstate';
import { sha256 } from '../../../effects/fs/blob-store.js';
import type { MachineEvent } from '../../../machines/effect-events.js';
import type { EffectRequest } from '../../../machines/effects.js';
import type { WorkContext } from '../../../machines/work/work-context.js';
import { stateText } from '../../../store/fold/state-text.js';
import type { ModelWorld } from './model-world.js';
import { COMMON_FILES } from './model-world.js';
import { notesBody } from './world-script.js';
import type { PlanNode } from './world-plan.js';

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
  const decided = kind === 'commit.create' ? entryAsPresence(withoutKey(params, 'head')) : params;
  const wanted = kind === 'commit.create' ? entryAsPresence(expected.params) : expected.params;
  if (canonical(wanted) !== canonical(decided)) return `${kind} params ${canonical(params)}, expected ${canonical(expected.params)}`;
  return null;
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
      return same('payload', sample, real);
    default:
      return null;
  }
}

const read = (world: ModelWorld, rel: string): string | null => (existsSync(join(world.loopDir, rel)) ? readFileSync(join(world.loopDir, rel), 'utf8') : null);
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
        for (const [name, hash] of Object.entries(answered.params.specFiles)) {
          const content = read(world, name);
          expect(hash === null ? content === null : content !== null && sha256(content) === hash, `.loop/${name} was not restored to its backup`);
        }
      }
      expect(read(world, 'protocol.md') === COMMON_FILES['.loop/protocol.md'], '.loop/protocol.md still holds what the worker scribbled');
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
