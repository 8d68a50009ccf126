// A gate's ruling on one hook request: classify the call in its scope, then rule on it. Pure, so
// `yoke replay --verify` rules again on every journaled request and compares.
import type { Config } from '../../config/types.js';
import type { Classification } from '../classification.js';
import { classifyToolCall } from '../classify-tool-call.js';
import { ruleToolCall, type ToolRuling } from '../ruling/rule-tool-call.js';
import type { StandingAnswers } from '../ruling/standing-answers.js';
import type { PolicyAgent } from '../tool-act.js';
import type { ToolScope } from '../tool-scope.js';

/** The call as the gate journals it. */
export interface GatedCall {
  agent: PolicyAgent;
  tool: string;
  input: unknown;
  callId: string;
  /** the run it was made in ('' without a run) */
  runId: string;
}

/** The classification and the ruling. */
export interface HookRuling {
  classification: Classification;
  ruling: ToolRuling;
}

/**
 * Classifies and rules on a gated call.
 * @example ruleHookCall({ agent: 'claude', tool: 'Bash', input: { command: 'rm -rf keep' }, callId: 't', runId: '' }, scope, undefined, NO_ANSWERS).ruling.ruling // 'refuse'
 */
export function ruleHookCall(call: GatedCall, scope: ToolScope, toolRules: Config['toolRules'], answers: StandingAnswers): HookRuling {
  const classification = classifyToolCall({ agent: call.agent, tool: call.tool, input: call.input }, scope);
  return { classification, ruling: ruleToolCall({ callId: call.callId, runId: call.runId, tool: call.tool }, classification, toolRules, answers) };
}

/** The refusal of a call the gate could not read (fail closed). */
export function unreadableRefusal(problem: string): string {
  return `refused: yoke could not read this tool call (${problem}), so it cannot rule on it and refuses it. Retry the call as it was meant.`;
}
