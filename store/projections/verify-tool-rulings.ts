// `yoke replay --verify` for tool-call control (DESIGN §13): every `tool.ruled` record is ruled
// again from its journaled `tool.requested` (agent, tool, input, the scope it was classified in),
// the operator's answers journaled before it (any run's: workspace answers stand across runs) and
// the run's `tool` rows and `tool-control` setting, with today's classifier and policy. A ruling
// that differs, or a ruling with no request, is a divergence at that record. And every tool call
// an agent's CLI ran (the `toolCalls` of its agent.spawn result) must match a ruling of that agent
// call that let it through: one that does not is a divergence at the call's completion.
import { GATED_AGENT_KINDS } from '../../config/tool-gate-reach.js';
import type { Config } from '../../config/types.js';
import type { ExecutedToolCall } from '../../machines/effects.js';
import { ruleHookCall } from '../../policy/gate/rule-hook-call.js';
import { trackedDigest } from '../../policy/gate/tracked-digest.js';
import { unruledCalls, type CallRuling } from '../../policy/gate/unruled-calls.js';
import { standingAnswers, type AnswerEvent } from '../../policy/ruling/standing-answers.js';
import { isPolicyAgent } from '../../policy/tool-act.js';
import type { ToolScope } from '../../policy/tool-scope.js';
import type { JournalRecord } from '../journal/record.js';
import { answerEvents, callRuling } from '../gate/tool-records.js';
import { firstDifference } from './first-difference.js';
import type { Divergence } from './check-record.js';
import { scopeMismatch, type RulingRun } from './verify-tool-scope.js';

type Requested = Extract<JournalRecord, { type: 'tool.requested' }>;
type Ruled = Extract<JournalRecord, { type: 'tool.ruled' }>;

/** The order a ruling's fields are compared in. */
const DECISIVE_FIRST = ['ruling', 'class', 'source', 'classes', 'enforced', 'message'] as const;

/** The part of a run's config a ruling depends on. */
export type RulingConfig = Pick<Config, 'toolRules' | 'toolControl'>;

/**
 * The ruling today's classifier and policy give a journaled request, as a `tool.ruled` payload.
 * `trackedList` finds a tracked list an earlier request journaled, by its digest.
 */
export function rederiveRuling(
  request: Requested, config: RulingConfig | undefined, answers: readonly AnswerEvent[], trackedList: (digest: string) => readonly string[] | undefined = () => undefined,
): Ruled['payload'] | { unreadable: true } | { missingTracked: string } {
  const { agent, tool, input, callId, scope, id } = request.payload;
  if (tool === null || request.payload.unreadable !== undefined || !isPolicyAgent(agent) || scope === null || typeof scope !== 'object') return { unreadable: true };
  const { trackedDigest: digest, ...journaled } = scope as ToolScope;
  const tracked = digest === undefined ? undefined : trackedList(digest);
  if (digest !== undefined && tracked === undefined) return { missingTracked: digest };
  const { classification, ruling } = ruleHookCall({ agent, tool, input, callId, runId: request.run ?? '' }, { ...journaled, ...(tracked === undefined ? {} : { tracked }) }, config?.toolRules, standingAnswers(answers));
  return { id, ruling: ruling.ruling, class: ruling.class, classes: classification.classes, source: ruling.source, message: ruling.message, enforced: (config?.toolControl ?? 'on') === 'on' };
}

/**
 * Watches the whole journal (`observe` every record, in order, after the run verifiers saw it) and
 * checks a run's `tool.ruled` records against what they re-derive to (`check`, before `observe`).
 */
export class ToolRulingChecker {
  private readonly requests = new Map<string, Requested>();
  private readonly answers: AnswerEvent[] = [];
  /** the rulings of each agent call still open, and the agent it runs */
  private readonly callRulings = new Map<string, CallRuling[]>();
  private readonly callAgents = new Map<string, string>();
  /** the parallel lane of each agent call still open that runs in one */
  private readonly callLanes = new Map<string, string>();
  /** the tracked lists journaled so far, by digest */
  private readonly trackedLists = new Map<string, readonly string[]>();
  /** rulings re-derived and found equal, per run */
  readonly verified = new Map<string, number>();

  /** Fold one record: requests by run and id, answers and revocations. */
  observe(record: JournalRecord): void {
    if (record.type === 'tool.requested') {
      this.requests.set(`${record.run ?? ''}\n${record.payload.id}`, record);
      const tracked = (record.payload.scope as ToolScope | null)?.tracked;
      if (Array.isArray(tracked)) this.trackedLists.set(trackedDigest(tracked), tracked);
    }
    else if (record.type === 'tool.ruled') {
      const id = `${record.run ?? ''}\n${record.payload.id}`;
      const request = this.requests.get(id);
      this.requests.delete(id);
      const key = request?.payload.key ?? null;
      if (request !== undefined && key !== null) this.callRulings.set(key, [...(this.callRulings.get(key) ?? []), callRuling(request.payload, record.payload)]);
    } else if (record.type === 'tool.answered' || record.type === 'tool.revoked') this.answers.push(...answerEvents([record]));
    else if (record.type === 'effect.started' && record.payload.kind === 'agent.spawn') {
      const params = record.payload.params as { agent?: { kind?: unknown }; lane?: unknown } | null;
      const kind = params?.agent?.kind;
      this.callAgents.set(record.payload.key, typeof kind === 'string' ? kind : '?');
      if (typeof params?.lane === 'string') this.callLanes.set(record.payload.key, params.lane);
    } else if (record.type === 'effect.completed' && record.payload.kind === 'agent.spawn') {
      this.callRulings.delete(record.payload.key);
      this.callAgents.delete(record.payload.key);
      this.callLanes.delete(record.payload.key);
    }
  }

  /**
   * A divergence when `record` is a request classified in a scope its run did not give the gate, a
   * ruling today's policy would not make, or an agent call's completion naming a tool call it ran
   * that no ruling let through (null otherwise, and for other records). `run`: what the record's
   * run gave the gate, from its fold.
   */
  check(record: JournalRecord, run: RulingRun): Divergence | null {
    const { config, proof } = run;
    if (record.type === 'effect.completed' && record.payload.kind === 'agent.spawn') return this.checkExecuted(record, config, proof);
    if (record.type === 'tool.requested') return requestScopeDivergence(record, run, record.payload.key === null ? null : this.callLanes.get(record.payload.key) ?? null);
    // (a request with no ruling after it is no divergence: the gate got no answer, so the call was refused)
    if (record.type !== 'tool.ruled') return null;
    const request = this.requests.get(`${record.run ?? ''}\n${record.payload.id}`);
    if (request === undefined) return divergence(record, `the journal rules on tool call ${record.payload.id}, which was never requested`, record.payload, null);
    const expected = rederiveRuling(request, config, this.answers, (digest) => this.trackedLists.get(digest));
    if ('missingTracked' in expected) return divergence(record, `tool call ${record.payload.id} was classified with a tracked-file list (digest ${expected.missingTracked.slice(0, 12)}) that no earlier request journals`, expected.missingTracked, null);
    if ('unreadable' in expected) {
      const refused = { ruling: 'refuse', source: { kind: 'unreadable' } };
      const journal = { ruling: record.payload.ruling, source: record.payload.source };
      return firstDifference(journal, refused) === null ? this.count(record) : divergence(record, `tool call ${record.payload.id} could not be read, so only a refusal (source unreadable) may be journaled for it`, journal, refused);
    }
    // the decisive fields first: a changed ruling is reported as such, not as its changed sentence
    const journaled = record.payload as Record<string, unknown>;
    const derived = expected as Record<string, unknown>;
    const difference = DECISIVE_FIRST.map((field) => firstDifference(journaled[field], derived[field], field)).find((found) => found !== null)
      ?? firstDifference(record.payload, expected);
    if (difference === null) return this.count(record);
    return {
      seq: record.seq, record: record.type, key: request.payload.key,
      what: `today's classifier and policy rule on tool call ${record.payload.id} (${request.payload.agent} ${request.payload.tool ?? '?'}) otherwise than the journal`,
      path: difference.path === '' ? null : difference.path, journal: difference.journal, machine: difference.machine,
    };
  }

  /** Every tool call the agent call ran matches a ruling of that call that let it through. */
  private checkExecuted(record: Extract<JournalRecord, { type: 'effect.completed' }>, config: RulingConfig | undefined, proof: boolean): Divergence | null {
    const { key } = record.payload;
    const executed = (record.payload.result as { toolCalls?: ExecutedToolCall[] } | null)?.toolCalls;
    const agent = this.callAgents.get(key) ?? '?';
    if (executed === undefined) {
      if (!proof || (config?.toolControl ?? 'on') === 'off' || !GATED_AGENT_KINDS.includes(agent)) return null;
      return { seq: record.seq, record: record.type, key, what: `agent call ${key} (${agent}) does not journal the tool calls it ran, so they cannot be matched to the gate's rulings`, path: 'toolCalls', journal: null, machine: 'the tool calls the CLI ran' };
    }
    const [first] = unruledCalls(executed, this.callRulings.get(key) ?? []);
    if (first === undefined) return null;
    return {
      seq: record.seq, record: record.type, key,
      what: `${agent} ran the tool call \`${first.summary}\` in agent call ${key} without a ruling of the gate that let it through`,
      path: 'toolCalls', journal: first, machine: 'a tool.ruled pass (or advisory) for this call',
    };
  }

  private count(record: JournalRecord): null {
    this.verified.set(record.run ?? '', (this.verified.get(record.run ?? '') ?? 0) + 1);
    return null;
  }
}

/** A request whose journaled scope is not the one its run gave the gate (an unreadable request has none); `lane`: the lane of its agent call. */
function requestScopeDivergence(record: Requested, run: RulingRun, lane: string | null): Divergence | null {
  const { scope } = record.payload;
  if (scope === null || typeof scope !== 'object') return null;
  const mismatch = scopeMismatch(scope as ToolScope, run, lane);
  if (mismatch === null) return null;
  return {
    seq: record.seq, record: record.type, key: record.payload.key,
    what: `tool call ${record.payload.id} (${record.payload.agent} ${record.payload.tool ?? '?'}) was classified in a scope its run did not give the gate`,
    path: mismatch.path, journal: mismatch.journal, machine: mismatch.machine,
  };
}

function divergence(record: JournalRecord, what: string, journal: unknown, machine: unknown): Divergence {
  return { seq: record.seq, record: record.type, key: null, what, path: null, journal, machine };
}
