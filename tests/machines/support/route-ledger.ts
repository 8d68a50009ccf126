// The bookkeeper of `routing escalate` (DESIGN §15) for runs that route by sequence: an oracle that
// never reads the machine's context. It follows one replayed path from the requests the machine
// emits and the events fed back, keeps its own count of each sequence's failed attempts, and names
// the invariant a worker call breaks when it runs as the wrong profile, with the wrong model, or
// without saying why.
import { initialTransition, transition, type AnyMachineSnapshot, type AnyStateMachine } from 'xstate';
import { TIERS, type Config, type Profile } from '../../../config/types.js';
import type { MachineEvent } from '../../../machines/effect-events.js';
import type { EffectRequest } from '../../../machines/effects.js';
import type { WorkInput } from '../../../machines/work/work-context.js';
import { requestsOf } from './loop-driver.js';
import { replayAll } from './replay-paths.js';

export const ROUTE_INVARIANT = {
  rung: '§15 escalate: each worker call runs its own sequence\'s rung (a story, a chunk, the run): one tier up per attempt of that sequence that failed its gates, none after a crash, an idle or hard timeout or a server error, never past the top',
  model: '§15 each profile runs with its own model (the `model` line only for the profile `agent` names)',
  reason: '§15 every escalate call journals why it runs on its rung, naming its profile and (after a failure) the failed gates',
} as const;
export type RouteInvariant = keyof typeof ROUTE_INVARIANT;
const EVERY_INVARIANT: ReadonlySet<RouteInvariant> = new Set(['rung', 'model', 'reason']);

/** Classifications that never reach the gates (the call is retried or the run held). */
export const SETBACKS = ['rate-limited', 'auth-error', 'tool-held'];
/** Classifications that say nothing of the model's work. */
export const INFRASTRUCTURE = ['crashed', 'idle-timeout', 'timed-out', 'server-error'];

/** What the oracle knows of the attempt under way. */
interface Attempt {
  sequence: string;
  lastCall: string;
  violation: boolean;
  checkFailed: boolean;
  acceptance: 'passed' | 'failed' | null;
}

interface RouteBook {
  snapshot: AnyMachineSnapshot;
  pending: EffectRequest | null;
  attempt: Attempt | null;
  /** failed attempts per sequence (the oracle's own count) */
  failures: Readonly<Record<string, number>>;
}

/** The oracle's own ladder: per tier, cheapest first, the tier's first profile in file order, none above `max-tier`. */
function ladderOf(config: Config): Profile[] {
  const top = config.maxTier === undefined ? TIERS.length - 1 : TIERS.indexOf(config.maxTier);
  const rungs: Profile[] = [];
  for (const tier of TIERS.slice(0, top + 1)) {
    const first = (config.profiles ?? []).find((profile) => profile.tier === tier);
    if (first) rungs.push(first);
  }
  return rungs;
}

function sequenceOf(params: { story?: string; chunk?: number }): string {
  return params.story !== undefined ? `story:${params.story}` : params.chunk !== undefined ? `chunk:${params.chunk}` : 'run';
}

/** The problem with a worker call, or null. */
export function checkWorkerCall(config: Config, request: Extract<EffectRequest, { kind: 'agent.spawn' }>, failures: Readonly<Record<string, number>>, checked: ReadonlySet<RouteInvariant>): string | null {
  const ladder = ladderOf(config);
  const failed = failures[sequenceOf(request.params)] ?? 0;
  const expected = ladder[Math.min(failed, ladder.length - 1)];
  if (!expected) return null;
  const { profile, model, routeReason } = request.params;
  if (checked.has('rung') && profile !== expected.name) return `${ROUTE_INVARIANT.rung}: ${sequenceOf(request.params)} failed ${failed} time(s), so ${expected.name}, but the call runs as ${profile ?? '(none)'}`;
  const wanted = expected.name === config.agentProfile ? config.model ?? expected.model ?? null : expected.model ?? null;
  if (checked.has('model') && profile === expected.name && model !== wanted) return `${ROUTE_INVARIANT.model}: ${expected.name} runs with ${String(model)}, not ${String(wanted)}`;
  if (checked.has('reason') && (routeReason === undefined || !routeReason.includes(`${expected.name} (${expected.tier})`) || (failed > 0 && !/failed/.test(routeReason)))) {
    return `${ROUTE_INVARIANT.reason}: ${JSON.stringify(routeReason)}`;
  }
  return null;
}

/** The oracle's book after `event` answered the book's pending request. */
function observe(book: RouteBook, event: MachineEvent, noModify: readonly string[], goal: boolean): Pick<RouteBook, 'attempt' | 'failures'> {
  const { pending, attempt, failures } = book;
  if (pending === null) return { attempt, failures };
  if (pending.kind === 'agent.spawn' && pending.params.role === 'worker' && event.type === 'AGENT_EXITED') {
    const classification = event.result.classification ?? 'ok';
    if (SETBACKS.includes(classification)) return { attempt, failures };
    return { attempt: { sequence: sequenceOf(pending.params), lastCall: classification, violation: false, checkFailed: false, acceptance: null }, failures };
  }
  if (attempt === null) return { attempt, failures };
  if (event.type === 'BOUNDARY_SCANNED') {
    return { attempt: { ...attempt, violation: event.result.changed.some((path) => noModify.some((prefix) => path.startsWith(prefix))) }, failures };
  }
  if (pending.kind === 'check.run' && event.type === 'CHECK_FINISHED' && pending.params.kind !== 'periodic') {
    const passed = event.result.outcome === 'exited' && event.result.exitCode === 0;
    return { attempt: { ...attempt, checkFailed: attempt.checkFailed || !passed }, failures };
  }
  if (event.type === 'ACCEPTANCE_CHECKED') {
    const passed = event.result.outcome === 'completed' && event.result.status === 'passed';
    return { attempt: { ...attempt, acceptance: passed ? 'passed' : 'failed' }, failures };
  }
  if (pending.kind === 'file.write' && pending.params.file === 'guard-results.md') {
    const passed = !attempt.violation && !attempt.checkFailed && (!goal || attempt.acceptance === 'passed');
    const climbs = !passed && !INFRASTRUCTURE.includes(attempt.lastCall);
    return { attempt: null, failures: climbs ? { ...failures, [attempt.sequence]: (failures[attempt.sequence] ?? 0) + 1 } : failures };
  }
  return { attempt, failures };
}

/**
 * Replay every path through `machine` from `input` and check the routing invariants after each
 * step; `rules` is the input the oracle reads what the user wrote from (default `input`);
 * `checked`: the invariants checked (all by default; fewer to see one of them bite). `seen`:
 * each `<sequence> <profile>` a worker call ran as.
 */
export function checkRoutePaths(
  machine: AnyStateMachine, input: WorkInput, paths: readonly MachineEvent[][], describe: (path: readonly MachineEvent[]) => string,
  rules: WorkInput = input, checked: ReadonlySet<RouteInvariant> = EVERY_INVARIANT,
): { failures: string[]; folded: number; seen: Set<string> } {
  const failures: string[] = [];
  const seen = new Set<string>();
  const { config } = rules;
  const goal = config.mode === 'goal';
  const [initial, actions] = initialTransition(machine, input);
  const pendingOf = (requests: EffectRequest[], before: EffectRequest | null): EffectRequest | null => requests.filter((request) => request.kind !== 'hook.fire').at(-1) ?? before;
  const start: RouteBook = { snapshot: initial, pending: pendingOf(requestsOf(actions), null), attempt: null, failures: {} };
  const folded = replayAll(paths, start, (book, path) => {
    const event = path[path.length - 1] as MachineEvent;
    if (book.snapshot.status !== 'active') return book;
    const [snapshot, emitted] = transition(machine, book.snapshot, event);
    const next = observe(book, event, config.noModify, goal);
    const requests = requestsOf(emitted);
    for (const request of requests) {
      if (request.kind !== 'agent.spawn' || request.params.role !== 'worker' || failures.length > 0) continue;
      seen.add(`${sequenceOf(request.params)} ${request.params.profile ?? '-'}`);
      const problem = checkWorkerCall(config, request, next.failures, checked);
      if (problem !== null) failures.push(`${problem}\n  after: ${describe(path)}`);
    }
    return { snapshot, pending: pendingOf(requests, book.pending), ...next };
  });
  return { failures, folded, seen };
}
