// Ids of gated tool calls: stable for the same call, short enough to type in `yoke answer <id>`.
import { createHash } from 'node:crypto';

/** The call's id: the CLI's own (Claude's tool_use_id) when it gives one, else one derived from the tool and its input, so a retried identical call has the same id. */
export function gateCallId(toolUseId: string | null, tool: string, input: unknown): string {
  if (toolUseId !== null) return toolUseId;
  return `call-${createHash('sha256').update(JSON.stringify([tool, input])).digest('hex').slice(0, 16)}`;
}

/** The hold id of a call in a run (`run` null: no run): 8 hex digits. */
export function gateHoldId(run: string | null, callId: string): string {
  return createHash('sha256').update(`${run ?? ''}\n${callId}`).digest('hex').slice(0, 8);
}

/**
 * The agents whose CLI cannot pause on a held call (no `defer`): a hold is a denial, and the next
 * attempt makes the call afresh under a new tool-use id. Their calls are identified by the tool
 * and its input, so an answer to the held call stands for the retried one.
 */
const DENY_ONLY_AGENTS: readonly string[] = ['codex', 'gemini', 'qwen', 'opencode'];

/** The call id the gate journals for `agent`'s call (see DENY_ONLY_AGENTS). */
export function agentCallId(agent: string, toolUseId: string | null, tool: string, input: unknown): string {
  return gateCallId(DENY_ONLY_AGENTS.includes(agent) ? null : toolUseId, tool, input);
}
