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
