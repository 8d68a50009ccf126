// The bookkeeper of `routing escalate` in parallel lanes (DESIGN §10 with §15): an oracle that never
// reads the machine's context. It follows one replayed path lane by lane (each lane's outstanding
// request, matched to the events that carry its story), keeps its own count of each story's failed
// attempts (a lane turn whose gates failed, a candidate a gate rejected on the integrated tree; not
// a conflict, not after an infrastructure failure), and checks every lane worker call with the
// serial oracle's rules (route-ledger.ts): its story's rung, its profile's model, its reason.
import { initialTransition, transition, type AnyMachineSnapshot, type AnyStateMachine } from 'xstate';
import type { MachineEvent } from '../../../machines/effect-events.js';
import type { EffectRequest } from '../../../machines/effects.js';
import type { WorkInput } from '../../../machines/work/work-context.js';
import { requestsOf } from './loop-driver.js';
import { replayAll } from './replay-paths.js';
import { checkWorkerCall, INFRASTRUCTURE, SETBACKS, type RouteInvariant } from './route-ledger.js';

/** The turn under way in a story's lane, as the oracle saw it. */
interface LaneTurn {
  violation: boolean;
  checkFailed: boolean;
}

interface LaneRouteBook {
  snapshot: AnyMachineSnapshot;
  /** each lane's outstanding request, by story */
  pending: Readonly<Record<string, EffectRequest>>;
  turns: Readonly<Record<string, LaneTurn>>;
  /** how each story's latest worker call ended */
  lastCall: Readonly<Record<string, string>>;
  /** failed attempts per sequence (`story:<id>`), the oracle's own count */
  failures: Readonly<Record<string, number>>;
}

const climb = (failures: Readonly<Record<string, number>>, story: string): Record<string, number> => ({ ...failures, [`story:${story}`]: (failures[`story:${story}`] ?? 0) + 1 });

/** The oracle's book after `event` answered its lane's outstanding request. */
function observe(book: LaneRouteBook, event: MachineEvent, noModify: readonly string[]): Omit<LaneRouteBook, 'snapshot' | 'pending'> {
  const { turns, lastCall, failures } = book;
  const story = (event as { lane?: string }).lane;
  const pending = story === undefined ? undefined : book.pending[story];
  if (story === undefined || pending === undefined) return { turns, lastCall, failures };
  const turn = turns[story];
  if (pending.kind === 'agent.spawn' && event.type === 'AGENT_EXITED') {
    const classification = event.result.classification ?? 'ok';
    if (SETBACKS.includes(classification)) return { turns, lastCall, failures };
    return { turns: { ...turns, [story]: { violation: false, checkFailed: false } }, lastCall: { ...lastCall, [story]: classification }, failures };
  }
  if (turn !== undefined && pending.kind === 'boundary.scan' && event.type === 'BOUNDARY_SCANNED') {
    return { turns: { ...turns, [story]: { ...turn, violation: event.result.changed.some((path) => noModify.some((prefix) => path.startsWith(prefix))) } }, lastCall, failures };
  }
  if (turn !== undefined && pending.kind === 'check.run' && event.type === 'CHECK_FINISHED' && pending.params.kind !== 'periodic') {
    const passed = event.result.outcome === 'exited' && event.result.exitCode === 0;
    return { turns: { ...turns, [story]: { ...turn, checkFailed: turn.checkFailed || !passed } }, lastCall, failures };
  }
  const infrastructure = INFRASTRUCTURE.includes(lastCall[story] ?? 'ok');
  if (turn !== undefined && pending.kind === 'file.write' && pending.params.file === 'guard-results.md' && event.type === 'FILE_WRITTEN') {
    const { [story]: _closed, ...open } = turns;
    return { turns: open, lastCall, failures: (turn.violation || turn.checkFailed) && !infrastructure ? climb(failures, story) : failures };
  }
  if (pending.kind === 'candidate.reject' && event.type === 'CANDIDATE_REJECTED') {
    return { turns, lastCall, failures: pending.params.gate !== 'rebase' && !infrastructure ? climb(failures, story) : failures };
  }
  return { turns, lastCall, failures };
}

/**
 * Replay every path through `machine` from `input` and check each lane worker call; `rules` is the
 * input the oracle reads what the user wrote from (default `input`), `checked` the invariants.
 * `seen`: each `<sequence> <profile>` a lane call ran as, and `<sequence> <profile> beside <other>
 * after <n> failure(s)` when another story had climbed by then.
 */
export function checkLaneRoutePaths(
  machine: AnyStateMachine, input: WorkInput, paths: readonly MachineEvent[][], describe: (path: readonly MachineEvent[]) => string,
  rules: WorkInput = input, checked: ReadonlySet<RouteInvariant> = new Set(['rung', 'model', 'reason']),
): { failures: string[]; folded: number; seen: Set<string> } {
  const failures: string[] = [];
  const seen = new Set<string>();
  const { config } = rules;
  const withRequests = (pending: Readonly<Record<string, EffectRequest>>, requests: readonly EffectRequest[]): Record<string, EffectRequest> => {
    const next = { ...pending };
    for (const request of requests) {
      const lane = (request.params as { lane?: string }).lane;
      if (lane !== undefined && request.kind !== 'hook.fire') next[lane] = request;
    }
    return next;
  };
  const [initial, actions] = initialTransition(machine, input);
  const start: LaneRouteBook = { snapshot: initial, pending: withRequests({}, requestsOf(actions)), turns: {}, lastCall: {}, failures: {} };
  const folded = replayAll(paths, start, (book, path) => {
    const event = path[path.length - 1] as MachineEvent;
    if (book.snapshot.status !== 'active') return book;
    const [snapshot, emitted] = transition(machine, book.snapshot, event);
    const next = observe(book, event, config.noModify);
    const requests = requestsOf(emitted);
    for (const request of requests) {
      if (request.kind !== 'agent.spawn' || request.params.role !== 'worker' || failures.length > 0) continue;
      const sequence = `story:${request.params.story ?? '?'}`;
      seen.add(`${sequence} ${request.params.profile ?? '-'}`);
      for (const [other, failed] of Object.entries(next.failures)) {
        if (other !== sequence && failed > 0) seen.add(`${sequence} ${request.params.profile ?? '-'} beside ${other} after ${failed} failure(s)`);
      }
      const problem = checkWorkerCall(config, request, next.failures, checked);
      if (problem !== null) failures.push(`${problem}\n  after: ${describe(path)}`);
    }
    return { snapshot, pending: withRequests(book.pending, requests), ...next };
  });
  return { failures, folded, seen };
}
