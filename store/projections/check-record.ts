// The check `yoke replay --verify` and `yoke run`'s resume make of each record of a run: does it
// agree with the fold of the records before it (the effect today's machine owes next, the event its
// journaled outcome produces, the end the machine reaches)?
import { hasLane, laneOfRequest } from '../fold/request-lane.js';
import { INTERRUPTION_EVENT, interruptionEvent } from '../../machines/effect-events.js';
import { firstDifference } from './first-difference.js';
import type { JournalRecord, RecordType } from '../journal/record.js';
import { canonical, outcomeEvent, type KeyedRequest, type RunFold } from '../fold/run-fold.js';
import { sameJson } from '../fold/same-json.js';
import { stateText } from '../fold/state-text.js';

/** The first record where the journal and today's machine disagree. */
export interface Divergence {
  seq: number;
  record: RecordType;
  /** the effect key the record is about, if any */
  key: string | null;
  /** one sentence: what differs */
  what: string;
  /** where inside the compared values they first differ (`params.prompt`), if both sides exist */
  path: string | null;
  /** what the journal says (at `path` when given) */
  journal: unknown;
  /** what today's machine derives (at `path` when given); null when it derives nothing */
  machine: unknown;
}

/**
 * Check one record against the fold of everything before it; null when it agrees. `startedKeys`
 * holds the keys of the effects journaled as started so far (the caller adds each one after it agrees).
 */
export function checkRecord(fold: RunFold, record: JournalRecord, startedKeys: ReadonlySet<string>): Divergence | null {
  const at = (what: string, journal: unknown, machine: unknown, key: string | null = keyOf(record)): Divergence => {
    const difference = machine === null ? null : firstDifference(journal, machine);
    return {
      seq: record.seq, record: record.type, key, what,
      path: difference && difference.path !== '' ? difference.path : null,
      journal: difference && difference.path !== '' ? difference.journal : journal,
      machine: difference && difference.path !== '' ? difference.machine : machine,
    };
  };
  switch (record.type) {
    case 'effect.started': {
      const { key, kind, params } = record.payload;
      const status = fold.effects.get(key);
      // Parallel stories: lanes run side by side, each in request order; elsewhere one at a time.
      const lane = status ? laneOfRequest(status.request) : '';
      const next = fold.outstanding.some(hasLane) ? fold.outstanding.find((request) => laneOfRequest(request) === lane) : fold.outstanding[0];
      const journaled = { key, kind, params };
      if (!status) return at(`the journal starts effect ${key} (${kind}), which today's machine never requests`, journaled, next ? requestOf(next) : null);
      if (!next || next.key !== key) {
        return at(`the journal starts effect ${key} (${kind}), but the oldest request today's machine still owes${lane === '' ? '' : ` in lane ${lane}`} is ${next ? `${next.key} (${next.request.kind})` : 'none'}`, journaled, next ? requestOf(next) : null);
      }
      if (status.request.request.kind !== kind || !sameJson(params, status.request.request.params, canonical)) {
        return at(`today's machine requests effect ${key} with another ${status.request.request.kind === kind ? 'params' : 'kind'} than the journal`, journaled, requestOf(status.request));
      }
      return null;
    }
    case 'effect.completed':
    case 'effect.interrupted':
    case 'effect.failed':
    case 'process.spawned': {
      const status = fold.effects.get(record.payload.key);
      if (!status) return at(`the journal records ${record.type} for effect ${record.payload.key}, which today's machine never requests`, record.payload, null);
      if (!startedKeys.has(record.payload.key)) {
        return at(`the journal records ${record.type} for effect ${record.payload.key}, which was never started`, record.payload, null);
      }
      const kind = status.request.request.kind;
      if ('kind' in record.payload && record.payload.kind !== kind) {
        return at(`the journal records ${record.type} for effect ${record.payload.key} as ${record.payload.kind}, but today's machine requested ${kind}`, record.payload.kind, kind);
      }
      // a surfaced kind, or a lane's turn effect withdrawn because its worktree was made again (LANE_INTERRUPTED)
      if (record.type === 'effect.interrupted' && !(kind in INTERRUPTION_EVENT) && interruptionEvent(status.request.request, record.payload.reason) === null) {
        return at(`effect ${record.payload.key} (${kind}) is journaled as interrupted, but its recovery policy retries or reconciles it instead`, record.payload, null);
      }
      return null;
    }
    case 'event': {
      const cause = record.payload.cause;
      if (cause === null) return null;
      const status = fold.effects.get(cause);
      if (!status) return at(`event ${record.payload.event.type} answers effect ${cause}, which today's machine never requests`, record.payload.event, null, cause);
      const expected = outcomeEvent(status);
      if (expected === null) return at(`event ${record.payload.event.type} answers effect ${cause}, which has no journaled outcome that tells the machine anything`, record.payload.event, null, cause);
      if (!sameJson(record.payload.event, expected, canonical)) {
        return at(`event ${record.payload.event.type} is not what the journaled outcome of effect ${cause} produces`, record.payload.event, expected, cause);
      }
      return null;
    }
    case 'run.finished': {
      if (fold.active) return at(`the journal says the run finished, but today's machine is still in ${stateText(fold.snapshot.value)}`, record.payload, null);
      const next = fold.outstanding[0];
      if (next) return at(`the journal says the run finished, but today's machine still owes ${next.key} (${next.request.kind})`, record.payload, requestOf(next));
      const output = fold.snapshot.output as { exitCode?: number; reason?: string; protection?: string } | undefined;
      const expected = {
        state: stateText(fold.snapshot.value), exitCode: output?.exitCode ?? 1, reason: output?.reason ?? 'unknown',
        ...(output?.protection === undefined ? {} : { protection: output.protection }),
      };
      if (firstDifference(record.payload, expected) !== null) return at("the journaled end of the run is not where today's machine ends", record.payload, expected);
      return null;
    }
    case 'run.started':
    case 'run.resumed':
    case 'run.interrupted':
    case 'run.abandoned':
    case 'journal.repaired':
    case 'checkpoint':
      return null;
    default:
      // Workspace records (the stash's) belong to no run and are never folded into one.
      return null;
  }
}

function requestOf(keyed: KeyedRequest): { key: string; kind: string; params: unknown } {
  return { key: keyed.key, kind: keyed.request.kind, params: keyed.request.params };
}

/** The effect key a record is about, if any. */
export function keyOf(record: JournalRecord): string | null {
  if (record.type === 'event') return record.payload.cause;
  const payload = record.payload as { key?: unknown };
  return typeof payload.key === 'string' ? payload.key : null;
}
