// Builders and a tiny pure driver for the loop machine: "events in → effects out" without I/O.
//
// `drive()` folds the machine the way store/fold/runner.ts does (oldest outstanding request first,
// its result fed back as the completion event, fire-and-forget hooks answered but never fed),
// with a scripted `responder` in place of the effect handlers.
import { initialTransition, transition, type AnyStateMachine, type SnapshotFrom } from 'xstate';
import { parseConfig } from '../../../config/parse-config.js';
import type { Config } from '../../../config/types.js';
import { awaitsEvent, completionEvent, interruptionEvent, type MachineEvent } from '../../../machines/effect-events.js';
import type { EffectKind, EffectParams, EffectRequest, EffectResult } from '../../../machines/effects.js';
import { loopMachine, type LoopInput, type LoopOutput } from '../../../machines/lifecycles/loop.js';
import { LIFECYCLE_REGISTRY } from '../../../machines/lifecycles/registry.js';

/** A snapshot of the loop machine. */
export type LoopSnapshot = SnapshotFrom<typeof loopMachine>;

/** The lines every test config starts with (a config needs a mode and an agent). */
export const CONF_HEAD = ['mode loop', 'agent cmd ./fake-agent.sh'];

/** A parsed loop config from `CONF_HEAD` plus `lines`; throws on any issue so tests stay honest. */
export function makeConfig(lines: readonly string[]): Config {
  const { config, issues } = parseConfig(`${[...CONF_HEAD, ...lines].join('\n')}\n`, '.loop/yoke.conf', LIFECYCLE_REGISTRY);
  if (config === null || issues.length > 0) {
    throw new Error(`test config does not parse cleanly:\n${issues.map((i) => `${i.line}:${i.column} ${i.message}`).join('\n')}`);
  }
  return config;
}

/** The worker prompt template every test input uses (the real one lives in canon/prompts/worker.md). */
export const WORKER_PROMPT = 'Iteration {{iteration}} of {{maxIterations}}, loop folder {{loopDir}}.';
/** The absolute `.loop/` of every test input. */
export const LOOP_DIR = '/project/.loop';
/** The spec files of every test input. */
export const SPEC_FILES = ['protocol.md', 'plan.md', 'yoke.conf'];

/** A loop input around `config` (a fixed prompt template, loop folder and spec files). */
export function makeInput(config: Config, overrides: Partial<LoopInput> = {}): LoopInput {
  return { config, workerPrompt: WORKER_PROMPT, loopDir: LOOP_DIR, specFiles: SPEC_FILES, ...overrides };
}

/** A responder's way to say "this agent call was cut short" instead of giving a result. */
export interface Interruption {
  interrupted: string;
}

/** Answer an agent call with an interruption (fed as AGENT_INTERRUPTED). */
export function interrupt(reason = 'yoke stopped while it ran'): Interruption {
  return { interrupted: reason };
}

/** Answers one request: the effect's result, or an interruption (agent calls only). */
export type Responder = (request: EffectRequest) => EffectResult<EffectKind> | Interruption;

/** Extra inputs for `drive`. */
export interface DriveOptions {
  /** external events (e.g. SET_MAX_ITERATIONS) fed just before `request` is answered */
  inject?: (request: EffectRequest) => MachineEvent[];
  /** requests answered before giving up (a guard against a machine that never ends) */
  maxSteps?: number;
  /** another lifecycle on the same context and events (brute, saga); the loop machine by default */
  machine?: AnyStateMachine;
}

/** What a drive saw and where it ended. */
export interface DriveResult {
  /** every request the machine emitted, in order (hooks included) */
  requests: EffectRequest[];
  /** every event fed to the machine, in order (replaying them must give the same fold) */
  events: MachineEvent[];
  snapshot: LoopSnapshot;
  output: LoopOutput | undefined;
  /** `final`: the machine ended; `stuck`: active with nothing requested; `step-limit`: gave up */
  end: 'final' | 'stuck' | 'step-limit';
}

/** The EffectRequests among the actions a pure transition returned. */
export function requestsOf(actions: ReadonlyArray<{ type: string; params?: unknown }>): EffectRequest[] {
  return actions.filter((action) => action.type === 'request').map((action) => action.params as EffectRequest);
}

function isInterruption(answer: EffectResult<EffectKind> | Interruption): answer is Interruption {
  return 'interrupted' in answer;
}

/** Fold the loop machine, answering every request with `responder`, until it ends. */
export function drive(input: LoopInput, responder: Responder, options: DriveOptions = {}): DriveResult {
  const maxSteps = options.maxSteps ?? 1_000;
  const requests: EffectRequest[] = [];
  const events: MachineEvent[] = [];
  const queue: EffectRequest[] = [];
  const take = (emitted: EffectRequest[]): void => {
    requests.push(...emitted);
    queue.push(...emitted);
  };
  // brute and saga share the loop's context, events and output; their snapshots are read the same way
  const machine = (options.machine ?? loopMachine) as typeof loopMachine;
  const [first, firstActions] = initialTransition(machine, input);
  let snapshot = first;
  take(requestsOf(firstActions));

  const feed = (event: MachineEvent): void => {
    if (snapshot.status !== 'active') throw new Error(`${event.type} fed to a machine that already ended in ${JSON.stringify(snapshot.value)}`);
    events.push(event);
    const [next, actions] = transition(machine, snapshot, event);
    snapshot = next;
    take(requestsOf(actions));
  };

  for (let steps = 0; queue.length > 0; steps += 1) {
    if (steps >= maxSteps) return { requests, events, snapshot, output: outputOf(snapshot), end: 'step-limit' };
    const next = queue.shift() as EffectRequest;
    if (snapshot.status !== 'active' && awaitsEvent(next)) throw new Error(`the machine ended in ${JSON.stringify(snapshot.value)} with ${next.kind} still waiting for its result`);
    if (snapshot.status === 'active') for (const event of options.inject?.(next) ?? []) feed(event);
    const answer = responder(next);
    if (isInterruption(answer)) {
      const event = interruptionEvent(next, answer.interrupted);
      if (event === null) throw new Error(`${next.kind} cannot be interrupted`);
      feed(event);
      continue;
    }
    const event = completionEvent(next, answer);
    if (event !== null) feed(event);
  }
  return { requests, events, snapshot, output: outputOf(snapshot), end: snapshot.status === 'active' ? 'stuck' : 'final' };
}

/** Fold recorded events from scratch (what `yoke replay` does): the requests and the last snapshot. */
export function replay(input: LoopInput, events: readonly MachineEvent[]): { requests: EffectRequest[]; snapshot: LoopSnapshot } {
  const [first, firstActions] = initialTransition(loopMachine, input);
  let snapshot = first;
  const requests = requestsOf(firstActions);
  for (const event of events) {
    const [next, actions] = transition(loopMachine, snapshot, event);
    snapshot = next;
    requests.push(...requestsOf(actions));
  }
  return { requests, snapshot };
}

function outputOf(snapshot: LoopSnapshot): LoopOutput | undefined {
  return snapshot.status === 'done' ? snapshot.output : undefined;
}

/** One line per request, short enough to list a whole run in a test. */
export function label(request: EffectRequest): string {
  switch (request.kind) {
    case 'hook.fire':
      return `hook ${request.params.event}@${request.params.iteration}`;
    case 'agent.spawn':
      return `agent.spawn #${request.params.iteration}`;
    case 'check.run':
      return `check.run ${request.params.name}`;
    case 'acceptance.check':
      return `acceptance.check ${request.params.criteria.map((criterion) => criterion.name).join(',')}`;
    case 'file.write':
      return `file.write ${request.params.file}`;
    case 'commit.create':
      return `commit.create #${request.params.iteration}`;
    case 'story.pass':
      return `story.pass ${request.params.story}`;
    case 'context.read':
      return 'context.read';
    case 'worktree.create':
    case 'candidate.commit':
    case 'candidate.rebase':
    case 'candidate.reject':
    case 'story.land':
    case 'worktree.remove':
      return `${request.kind} ${request.params.story}`;
    case 'file.inspect':
    case 'file.read':
    case 'notes.reset':
      return `${request.kind} ${request.params.file}`;
    case 'baseline.capture':
    case 'spec.restore':
    case 'notes.read':
    case 'boundary.scan':
    case 'clock.read':
    case 'wait.until':
    case 'protect.scan':
    case 'protect.restore':
      return request.kind;
  }
}

/** The requests of one kind, typed. */
export function requestsOfKind<K extends EffectKind>(requests: readonly EffectRequest[], kind: K): Extract<EffectRequest, { kind: K }>[] {
  return requests.filter((r): r is Extract<EffectRequest, { kind: K }> => r.kind === kind);
}

/**
 * Non-hook requests grouped by iteration: a group starts at each `spec.restore` (the first thing
 * every iteration does) and runs until the next one; `baseline.capture` comes before any group.
 */
export function iterationGroups(requests: readonly EffectRequest[]): string[][] {
  const groups: string[][] = [];
  for (const r of requests) {
    if (r.kind === 'hook.fire' || r.kind === 'baseline.capture') continue;
    if (r.kind === 'spec.restore') groups.push([]);
    groups.at(-1)?.push(label(r));
  }
  return groups;
}

// ---- results ------------------------------------------------------------------------------

/** What the world does in one iteration, for `scriptedResponder`. */
export interface IterationScript {
  /** first line of notes.md; 'DONE' / 'IN_PROGRESS' expand to `STATUS: …`; null = no notes */
  notes?: string | null;
  /** paths the boundary scan reports as changed since the baseline */
  changed?: string[];
  /** exit code (or a whole result) per check name; unlisted checks exit 0 */
  checks?: Record<string, number | EffectResult<'check.run'>>;
  /** how many agent calls of this iteration are interrupted before one completes */
  interruptions?: number;
  /** result of every hook fired in this iteration */
  hookStarted?: boolean;
}

/** The baseline tree id `scriptedResponder` reports. */
export const BASELINE_TREE = 'tree-baseline';

/** A check that exited with `exitCode` and printed `excerpt`. */
export function makeCheckResult(exitCode: number, excerpt: string): EffectResult<'check.run'> {
  return { outcome: 'exited', exitCode, signal: null, durationMs: 1_250, excerpt };
}

/**
 * A completed acceptance check of `params`: each command criterion exits with `exitCodes[name]`
 * (0 when unlisted, its excerpt naming it like `excerptOf`); journeys pass unless listed non-zero.
 */
export function makeAcceptanceResult(params: EffectParams<'acceptance.check'>, exitCodes: Record<string, number> = {}, iteration = 0): EffectResult<'acceptance.check'> {
  const criteria = params.criteria.map((criterion) => {
    const code = exitCodes[criterion.name] ?? 0;
    return criterion.kind === 'command'
      ? { name: criterion.name, kind: 'command' as const, status: code === 0 ? 'passed' as const : 'failed' as const, exitCode: code, outcome: 'exited' as const, durationMs: 1_250, excerpt: excerptOf(criterion.name, code, iteration) }
      : { name: criterion.name, kind: 'journey' as const, status: code === 0 ? 'passed' as const : 'failed' as const, exitCode: null, outcome: null, durationMs: 2_000, excerpt: '',
        category: code === 0 ? null : 'step-failed' as const, failedStep: code === 0 ? null : { index: code, action: 'expect-text' } };
  });
  const passed = criteria.every((criterion) => criterion.status === 'passed');
  return {
    outcome: 'completed', status: passed ? 'passed' : 'failed', exitCode: passed ? 0 : 1,
    report: { path: `proof/${params.label}/report.json`, sha256: 'd'.repeat(64) }, criteria, failedArtifacts: [], sourceMatches: true,
  };
}

/** A worker call that exited 0 with unknown usage. */
export function makeAgentResult(iteration: number): EffectResult<'agent.spawn'> {
  return { outcome: 'exited', exitCode: 0, signal: null, durationMs: 30_000, usage: null, transcript: `.journal/transcripts/worker-${iteration}.log` };
}

/** The default excerpt of a check: names it, its exit code and the iteration. */
export function excerptOf(name: string, exitCode: number, iteration: number): string {
  return `${name} said ${exitCode === 0 ? 'ok' : 'FAILED'} (exit ${exitCode}) in iteration ${iteration}`;
}

/**
 * A responder that plays `script(iteration)` for every iteration. It learns the iteration from
 * `agent.spawn` / `check.run` / `hook.fire` params, since notes.read and boundary.scan carry none.
 */
export function scriptedResponder(script: (iteration: number) => IterationScript): Responder {
  let iteration = 0;
  const interrupted = new Map<number, number>();
  return (request) => {
    switch (request.kind) {
      case 'baseline.capture':
        return { specFiles: Object.fromEntries(request.params.specFiles.map((file) => [file, `sha-of-${file}`])), tree: BASELINE_TREE };
      case 'spec.restore':
        return { restored: Object.keys(request.params.specFiles), displaced: {} };
      case 'agent.spawn': {
        iteration = request.params.iteration;
        const done = interrupted.get(iteration) ?? 0;
        if (done < (script(iteration).interruptions ?? 0)) {
          interrupted.set(iteration, done + 1);
          return interrupt();
        }
        return makeAgentResult(iteration);
      }
      case 'notes.read': {
        const notes = script(iteration).notes ?? 'IN_PROGRESS';
        return { firstLine: notes === 'DONE' || notes === 'IN_PROGRESS' ? `STATUS: ${notes}` : notes };
      }
      case 'boundary.scan':
        return { changed: script(iteration).changed ?? [] };
      case 'check.run': {
        iteration = request.params.iteration;
        const scripted = script(iteration).checks?.[request.params.name] ?? 0;
        return typeof scripted === 'number' ? makeCheckResult(scripted, excerptOf(request.params.name, scripted, iteration)) : scripted;
      }
      case 'acceptance.check': {
        const scripted = script(iteration).checks ?? {};
        const codes = Object.fromEntries(Object.entries(scripted).map(([name, value]) => [name, typeof value === 'number' ? value : value.exitCode ?? 1]));
        return makeAcceptanceResult(request.params, codes, iteration);
      }
      case 'file.write':
        return { sha256: 'f'.repeat(64) };
      case 'hook.fire':
        return { started: script(request.params.iteration).hookStarted ?? true };
      case 'commit.create':
        return { sha: `commit-${request.params.iteration}` };
      // Kinds only brute, saga and budgets use; the loop model never requests them.
      case 'file.inspect':
        return { exists: true, firstLine: 'VERDICT: PASS', blank: false, stamp: null };
      case 'file.read':
        return { content: null };
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
      case 'story.pass':
        return { sha: `commit-${request.params.iteration}`, prdBlob: 'b'.repeat(64) };
      case 'context.read':
        return { block: '', files: [], guard: { 'PROJECT.md': null, 'DECISIONS.md': null } };
      case 'worktree.create':
      case 'candidate.commit':
      case 'candidate.rebase':
      case 'candidate.reject':
      case 'story.land':
      case 'worktree.remove':
        throw new Error(`only parallel stories request ${request.kind}`);
    }
  };
}
