// The policy (DESIGN §13): the ruling on a classified tool call, and its source. Pure, so replay
// can re-derive it from the journaled request, the config and the answers that stood.
import type { Config, Ruling, ToolClass } from '../../config/types.js';
import type { Classification } from '../classification.js';
import { rulingMessage } from './ruling-message.js';
import type { RulingSource } from './ruling-source.js';
import { RULING_STRICTNESS, SHIPPED_TABLE } from './shipped-table.js';
import type { StandingAnswers } from './standing-answers.js';
import type { ToolAnswer } from './tool-answer.js';

/** The call being ruled on: its id, its run ('' without one) and its tool (the key answers match). */
export interface RuledCall {
  callId: string;
  runId: string;
  tool: string;
}

/** A ruling: pass, hold or refuse; the class that decided it; where it came from; the sentence for the model. */
export interface ToolRuling {
  ruling: Ruling;
  class: ToolClass;
  source: RulingSource;
  message: string;
}

interface Decision {
  ruling: Ruling;
  class: ToolClass;
  source: RulingSource;
}

function latest(answers: readonly ToolAnswer[], match: (answer: ToolAnswer) => boolean): ToolAnswer | undefined {
  return answers.filter(match).at(-1);
}

/** The ruling for one class of the call: a standing answer (run, then workspace), else a `tool` row, else the table. */
function decideClass(call: RuledCall, toolClass: ToolClass, toolRules: Config['toolRules'], answers: StandingAnswers): Decision {
  const same = (answer: ToolAnswer): boolean => answer.tool === call.tool && answer.class === toolClass;
  const standing = latest(answers.standing, (answer) => same(answer) && answer.scope === 'run' && answer.runId === call.runId)
    ?? latest(answers.standing, (answer) => same(answer) && answer.scope === 'workspace');
  if (standing !== undefined) return { ruling: standing.ruling, class: toolClass, source: { kind: 'answer', id: standing.id, scope: standing.scope } };
  const row = toolRules?.[toolClass];
  if (row !== undefined) return { ruling: row.ruling, class: toolClass, source: { kind: 'conf', line: row.line } };
  return { ruling: SHIPPED_TABLE[toolClass], class: toolClass, source: { kind: 'table' } };
}

/**
 * Rules on a classified call. An answer to this very call decides it whole. Otherwise each class the
 * call has is ruled on (standing answer, then `tool` row, then the shipped table) and the strictest
 * ruling wins, the most severe class first among equals: a `tool protected pass` row cannot let the
 * network part of a call through when network is refused.
 * @example ruleToolCall(call, { class: 'destructive', classes: ['destructive'], … }, config.toolRules, NO_ANSWERS).ruling // 'refuse'
 */
export function ruleToolCall(call: RuledCall, classification: Classification, toolRules: Config['toolRules'], answers: StandingAnswers): ToolRuling {
  const why = classification.reasons[0] ?? 'it does nothing yoke can see';
  const inRun = call.runId !== '';
  const answer = answers.byCall.get(call.callId);
  // A call's answer belongs to its run: ids derived from a call's content recur in later runs.
  if (answer !== undefined && answer.runId === call.runId) {
    const source: RulingSource = { kind: 'answer', id: answer.id, scope: 'call' };
    return { ruling: answer.ruling, class: classification.class, source, message: rulingMessage(answer.ruling, call.tool, classification.class, source, why, inRun) };
  }
  const decisions = classification.classes.map((toolClass) => decideClass(call, toolClass, toolRules, answers));
  const decided = decisions.reduce((worst, next) => (RULING_STRICTNESS[next.ruling] > RULING_STRICTNESS[worst.ruling] ? next : worst));
  const reason = classification.classes[0] === decided.class ? why : `it is also ${decided.class}`;
  return { ...decided, message: rulingMessage(decided.ruling, call.tool, decided.class, decided.source, reason, inRun) };
}
