// Projections of the tool-call control records (DESIGN §13): the answers that stand, and the
// calls still held. Folds over the journal, so they survive restarts exactly.
import type { ToolClass } from '../../config/types.js';
import type { CallRuling } from '../../policy/gate/unruled-calls.js';
import { standingAnswers, type AnswerEvent, type StandingAnswers } from '../../policy/ruling/standing-answers.js';
import type { ToolScope } from '../../policy/tool-scope.js';
import type { JournalRecord } from '../journal/record.js';

/** Every answer and revocation in journal order, as the policy's answer events. */
export function answerEvents(records: readonly JournalRecord[]): AnswerEvent[] {
  const events: AnswerEvent[] = [];
  for (const record of records) {
    if (record.type === 'tool.answered') {
      const p = record.payload;
      events.push({ kind: 'answer', answer: { id: p.answer, callId: p.callId, runId: record.run ?? '', tool: p.tool, class: p.class, ruling: p.ruling, scope: p.scope } });
    } else if (record.type === 'tool.revoked') events.push({ kind: 'revoke', id: record.payload.answer });
  }
  return events;
}

/** The answers that stand now. */
export function journalAnswers(records: readonly JournalRecord[]): StandingAnswers {
  return standingAnswers(answerEvents(records));
}

/** One held call: what `yoke holds` lists. */
export interface ToolHold {
  id: string;
  callId: string;
  run: string | null;
  agent: string;
  tool: string;
  input: unknown;
  class: ToolClass;
  message: string;
  ts: string;
  /** the answer given, if any */
  answered: { answer: string; ruling: 'pass' | 'refuse'; scope: string } | null;
}

/** True when `heldFor` (a run's hold) names a tool hold (`tool:<id>`) the journal has no answer to: `yoke run` does not send the run on. */
export function unansweredToolHold(heldFor: string | null, records: readonly JournalRecord[]): boolean {
  if (heldFor?.startsWith('tool:') !== true) return false;
  const id = heldFor.slice('tool:'.length);
  return !records.some((record) => record.type === 'tool.answered' && record.payload.id === id);
}

/** Every held call, oldest first (answered or not): the last ruling of each hold id was `hold`. */
export function toolHolds(records: readonly JournalRecord[]): ToolHold[] {
  const requested = new Map<string, Extract<JournalRecord, { type: 'tool.requested' }>>();
  const holds = new Map<string, ToolHold>();
  for (const record of records) {
    if (record.type === 'tool.requested') requested.set(record.payload.id, record);
    else if (record.type === 'tool.ruled') {
      const request = requested.get(record.payload.id);
      if (record.payload.ruling !== 'hold' || request === undefined || record.payload.class === null || request.payload.tool === null) continue;
      if (holds.has(record.payload.id)) continue;
      holds.set(record.payload.id, {
        id: record.payload.id, callId: request.payload.callId, run: request.run, agent: request.payload.agent, tool: request.payload.tool,
        input: request.payload.input, class: record.payload.class, message: record.payload.message, ts: record.ts, answered: null,
      });
    } else if (record.type === 'tool.answered') {
      const hold = holds.get(record.payload.id);
      if (hold !== undefined) hold.answered = { answer: record.payload.answer, ruling: record.payload.ruling, scope: record.payload.scope };
    }
  }
  return [...holds.values()];
}

/** Where a held call came from: the lanes and the stories whose agent calls it held. */
export interface HoldOrigin {
  /** the parallel lanes (by story id) whose agent calls were held on it, in order; one answer answers them all. Empty outside lanes */
  lanes: string[];
  /** the stories whose agent calls were held on it (a lane's story, or a serial stories run's story); empty when the calls named none */
  stories: string[];
}

/**
 * Hold id → where it came from, from the `agent.spawn` each held request's effect key names. Two
 * lanes' same call (an id derived from tool and input) is one hold naming both. Reads the agent
 * calls' `effect.started` records, which a checkpoint read leaves out: give it every record.
 */
export function holdOrigins(records: readonly JournalRecord[]): Map<string, HoldOrigin> {
  const calls = new Map<string, { lane?: string; story?: string }>();
  const keys = new Map<string, string | null>();
  const origins = new Map<string, HoldOrigin>();
  for (const record of records) {
    if (record.type === 'effect.started' && record.payload.kind === 'agent.spawn') calls.set(record.payload.key, record.payload.params as { lane?: string; story?: string });
    else if (record.type === 'tool.requested') keys.set(record.payload.id, record.payload.key);
    else if (record.type === 'tool.ruled' && record.payload.ruling === 'hold') {
      const key = keys.get(record.payload.id);
      const call = key === undefined || key === null ? undefined : calls.get(key);
      const origin = origins.get(record.payload.id) ?? { lanes: [], stories: [] };
      origins.set(record.payload.id, origin);
      if (call?.lane !== undefined && !origin.lanes.includes(call.lane)) origin.lanes.push(call.lane);
      const story = call?.lane ?? call?.story;
      if (story !== undefined && !origin.stories.includes(story)) origin.stories.push(story);
    }
  }
  return origins;
}

/** A short summary of a tool input for one line: the command, the path, or the JSON cut to `width`. */
export function inputSummary(input: unknown, width = 80): string {
  const fields = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const text = [fields.command, fields.cmd, fields.file_path, fields.path, fields.url].find((value): value is string => typeof value === 'string');
  const line = (text ?? JSON.stringify(input) ?? '').replace(/\s+/g, ' ');
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}

/**
 * The rulings the gate journaled during agent call `key`, each with its request, in order (a
 * request is ruled by the next `tool.ruled` of its id).
 */
export function callRulings(records: readonly JournalRecord[], key: string): CallRuling[] {
  const open = new Map<string, Extract<JournalRecord, { type: 'tool.requested' }>>();
  const rulings: CallRuling[] = [];
  for (const record of records) {
    if (record.type === 'tool.requested' && record.payload.key === key) open.set(record.payload.id, record);
    else if (record.type === 'tool.ruled') {
      const request = open.get(record.payload.id);
      if (request === undefined) continue;
      open.delete(record.payload.id);
      rulings.push(callRuling(request.payload, record.payload));
    }
  }
  return rulings;
}

/** A request and its ruling as the matcher reads them. */
export function callRuling(request: Extract<JournalRecord, { type: 'tool.requested' }>['payload'], ruled: Extract<JournalRecord, { type: 'tool.ruled' }>['payload']): CallRuling {
  const scope = typeof request.scope === 'object' && request.scope !== null ? (request.scope as ToolScope) : null;
  return { agent: request.agent, callId: request.callId, tool: request.tool, input: request.input, scope, letThrough: ruled.ruling === 'pass' || ruled.enforced === false };
}
