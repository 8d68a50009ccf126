// The lanes of a parallel run that hold it (DESIGN §10, §13): each lane whose agent call ended held
// (a tool call waiting for the operator, an agent that could not authenticate, tool calls that went
// around the gate), folded from the journal. The machine keeps only the last held lane's reason.
// A read that starts after a fold checkpoint starts from the lanes its ledger names as held then
// (checkpoint-ledger.ts), so the answer never depends on whether a checkpoint was there.
import type { JournalRecord } from '../journal/record.js';
import type { LedgerBase } from './checkpoint-ledger.js';

/** The setbacks that hold a lane until `yoke run` journals AGENT_RETRY. */
export type LaneHoldReason = 'tool-held' | 'auth-error' | 'tool-ungated';

/** One held lane: its story, why it holds, the detail its call ended with, and (tool-held) the hold ids its call made. */
export interface LaneHold {
  story: string;
  reason: LaneHoldReason;
  detail: string | null;
  /** tool-held: the hold ids of the call, the first one the call's `toolHold` (what answering goes on with) */
  holds: string[];
}

const REASONS: ReadonlySet<string> = new Set<LaneHoldReason>(['tool-held', 'auth-error', 'tool-ungated']);

interface SpawnParams { lane?: string }
interface SpawnResult { classification?: string; detail?: string | null; toolHold?: { id: string } }

/**
 * The lanes of run `run` held now, in the order they came to hold: every lane agent call that ended
 * on a hold since the run last journaled AGENT_RETRY (which sends every held lane on). Empty for a
 * serial run, whose one hold the machine's context names. `records` read from `base` on (its kept
 * records, then those after it) start from the lanes held at the checkpoint; its kept records only
 * name which lane an open call works in and which calls asked for which holds.
 */
export function heldLanes(records: readonly JournalRecord[], run: string, base: LedgerBase | null = null): LaneHold[] {
  const from = base !== null && base.started.run === run ? base : null;
  const upTo = from?.upTo ?? 0;
  const laneOf = new Map<string, string>();
  /** agent call key → the tool calls it asked for, in order; and the ids ruled `hold` */
  const asked = new Map<string, string[]>();
  const heldIds = new Set<string>();
  let held = new Map<string, LaneHold>((from?.ledger.run.heldLanes ?? []).map((lane) => [lane.story, lane]));
  for (const record of records) {
    if (record.run !== run) continue;
    if (record.type === 'effect.started' && record.payload.kind === 'agent.spawn') {
      const lane = (record.payload.params as SpawnParams).lane;
      if (lane !== undefined) laneOf.set(record.payload.key, lane);
    } else if (record.type === 'tool.requested' && record.payload.key !== null) {
      asked.set(record.payload.key, [...(asked.get(record.payload.key) ?? []), record.payload.id]);
    } else if (record.type === 'tool.ruled' && record.payload.ruling === 'hold') {
      heldIds.add(record.payload.id);
    }
    // what held lanes the checkpoint saw is its ledger's; its kept records are looked up, not folded again
    if (record.seq <= upTo) continue;
    if (record.type === 'event' && record.payload.event.type === 'AGENT_RETRY') held = new Map();
    else if (record.type === 'effect.completed' && record.payload.kind === 'agent.spawn') {
      const story = laneOf.get(record.payload.key);
      const result = record.payload.result as SpawnResult;
      if (story === undefined) continue;
      held.delete(story);
      const reason = result.classification;
      if (reason === undefined || !REASONS.has(reason)) continue;
      held.set(story, { story, reason: reason as LaneHoldReason, detail: result.detail ?? null, holds: reason === 'tool-held' ? holdsOf(result, asked.get(record.payload.key) ?? [], heldIds) : [] });
    }
  }
  return [...held.values()];
}

/** The hold ids of an agent call that asked for `asked`: its `toolHold` first, then the others ruled `hold` (the rulings come before the call ends). */
function holdsOf(result: SpawnResult, asked: readonly string[], heldIds: ReadonlySet<string>): string[] {
  const ids = result.toolHold === undefined ? [] : [result.toolHold.id];
  for (const id of asked) if (heldIds.has(id) && !ids.includes(id)) ids.push(id);
  return ids;
}
