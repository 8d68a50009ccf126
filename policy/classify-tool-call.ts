// The classifier (DESIGN §13): what one tool call of a built-in agent does, as a class with its
// paths and reasons. Pure and deterministic, so replay re-derives every ruling from the journaled
// request and scope.
import { actFindings } from './act-findings.js';
import { summarizeFindings, type Classification } from './classification.js';
import { normalizeToolCall } from './normalize/normalize-tool-call.js';
import type { PolicyAgent } from './tool-act.js';
import type { ToolScope } from './tool-scope.js';

/** One tool call as the agent's hook reports it. */
export interface ToolCall {
  agent: PolicyAgent;
  tool: string;
  input: unknown;
}

/**
 * Classifies a tool call in `scope`: `read`, `edit`, `exec`, `network`, `protected`, `secret` or
 * `destructive`, the most severe of what it does. An unknown tool is `exec`; shell commands are
 * parsed (`cd dir && rm -f -- *` is destructive).
 * @example classifyToolCall({ agent: 'claude', tool: 'Bash', input: { command: 'rm -rf keep/' } }, scope).class // 'destructive'
 */
export function classifyToolCall(call: ToolCall, scope: ToolScope): Classification {
  const acts = normalizeToolCall(call.agent, call.tool, call.input);
  return summarizeFindings(acts.flatMap((act) => actFindings(act, call.tool, scope)));
}
