// The tool calls Gemini CLI ran in one call, read from its stream-json (DESIGN §13): each
// `tool_use` (`tool_name`, `tool_id`, `parameters`) with a `tool_result`, unless the result's
// error says it never started: a `policy_violation` (a BeforeTool hook's block, or gemini's own
// policy denying it), a hook's `stop_execution`, or a call gemini refused before any hook
// (`invalid_tool_params`, `tool_not_registered`).
// Checked on Gemini CLI 0.61 (docs/tool-control.md). Gemini's hook sends no call id, so each is
// matched to the gate's ruling by the call key the gate journals: the tool and its input.
import type { ExecutedToolCall } from '../../machines/effects.js';
import { gateCallId } from '../../policy/gate/gate-call-id.js';
import { objectField, stringField } from './json-value.js';
import { toolCallSummary } from './tool-call-summary.js';

/** gemini's error types (ToolErrorType) of a call that never ran. */
const NOT_STARTED = ['policy_violation', 'stop_execution', 'invalid_tool_params', 'tool_not_registered'];

/** Collects from stream-json events as they come; `calls()` gives the executed ones in order. */
export class GeminiToolCalls {
  private readonly uses = new Map<string, { name: string; input: unknown }>();
  private readonly ran: string[] = [];

  /** Fold one stream-json event. */
  take(event: Record<string, unknown>): void {
    const id = stringField(event, 'tool_id');
    if (id === null) return;
    if (event.type === 'tool_use') this.uses.set(id, { name: stringField(event, 'tool_name') ?? '?', input: event.parameters ?? null });
    else if (event.type === 'tool_result' && !NOT_STARTED.includes(stringField(objectField(event, 'error'), 'type') ?? '') && !this.ran.includes(id)) this.ran.push(id);
  }

  /** The calls that ran. */
  calls(): ExecutedToolCall[] {
    return this.ran.map((id) => {
      const use = this.uses.get(id);
      if (use === undefined) return { tool: '?', match: { by: 'callId', callId: id }, summary: `tool call ${id}` };
      return { tool: use.name, match: { by: 'callId', callId: gateCallId(null, use.name, use.input) }, summary: toolCallSummary(use.name, use.input) };
    });
  }
}
