// `yoke replay --verify` for tool-call control (DESIGN §13): every `tool.ruled` record is ruled
// again from its journaled `tool.requested` (agent, tool, input, the scope it was classified in),
// the operator's answers journaled before it (any run's: workspace answers stand across runs) and
// the run's `tool` rows and `tool-control` setting, with today's classifier and policy. A ruling
// that differs, or a ruling with no request, is a divergence at that record.
import type { Config } from '../../config/types.js';
import { ruleHookCall } from '../../policy/gate/rule-hook-call.js';
import { standingAnswers, type AnswerEvent } from '../../policy/ruling/standing-answers.js';
import { isPolicyAgent } from '../../policy/tool-act.js';
import type { ToolScope } from '../../policy/tool-scope.js';
import type { JournalRecord } from '../journal/record.js';
import { answerEvents } from '../gate/tool-records.js';
import { firstDifference } from './first-difference.js';
import type { Divergence } from './check-record.js';

type Requested = Extract<JournalRecord, { type: 'tool.requested' }>;
type Ruled = Extract<JournalRecord, { type: 'tool.ruled' }>;

/** The order a ruling's fields are compared in. */
const DECISIVE_FIRST = ['ruling', 'class', 'source', 'classes', 'enforced', 'message'] as const;

/** The part of a run's config a ruling depends on. */
export type RulingConfig = Pick<Config, 'toolRules' | 'toolControl'>;

/** The ruling today's classifier and policy give a journaled request, as a `tool.ruled` payload. */
export function rederiveRuling(request: Requested, config: RulingConfig | undefined, answers: readonly AnswerEvent[]): Ruled['payload'] | { unreadable: true } {
  const { agent, tool, input, callId, scope, id } = request.payload;
  if (tool === null || request.payload.unreadable !== undefined || !isPolicyAgent(agent) || scope === null || typeof scope !== 'object') return { unreadable: true };
  const { classification, ruling } = ruleHookCall({ agent, tool, input, callId, runId: request.run ?? '' }, scope as ToolScope, config?.toolRules, standingAnswers(answers));
  return { id, ruling: ruling.ruling, class: ruling.class, classes: classification.classes, source: ruling.source, message: ruling.message, enforced: (config?.toolControl ?? 'on') === 'on' };
}

/**
 * Watches the whole journal (`observe` every record, in order, after the run verifiers saw it) and
 * checks a run's `tool.ruled` records against what they re-derive to (`check`, before `observe`).
 */
export class ToolRulingChecker {
  private readonly requests = new Map<string, Requested>();
  private readonly answers: AnswerEvent[] = [];
  /** rulings re-derived and found equal, per run */
  readonly verified = new Map<string, number>();

  /** Fold one record: requests by run and id, answers and revocations. */
  observe(record: JournalRecord): void {
    if (record.type === 'tool.requested') this.requests.set(`${record.run ?? ''}\n${record.payload.id}`, record);
    else if (record.type === 'tool.ruled') this.requests.delete(`${record.run ?? ''}\n${record.payload.id}`);
    else if (record.type === 'tool.answered' || record.type === 'tool.revoked') this.answers.push(...answerEvents([record]));
  }

  /** A divergence when `record` is a ruling today's policy would not make (null otherwise, and for other records). */
  check(record: JournalRecord, config: RulingConfig | undefined): Divergence | null {
    // (a request with no ruling after it is no divergence: the gate got no answer, so the call was refused)
    if (record.type !== 'tool.ruled') return null;
    const request = this.requests.get(`${record.run ?? ''}\n${record.payload.id}`);
    if (request === undefined) return divergence(record, `the journal rules on tool call ${record.payload.id}, which was never requested`, record.payload, null);
    const expected = rederiveRuling(request, config, this.answers);
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

  private count(record: JournalRecord): null {
    this.verified.set(record.run ?? '', (this.verified.get(record.run ?? '') ?? 0) + 1);
    return null;
  }
}

function divergence(record: JournalRecord, what: string, journal: unknown, machine: unknown): Divergence {
  return { seq: record.seq, record: record.type, key: null, what, path: null, journal, machine };
}
