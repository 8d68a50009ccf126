// The tool calls Qwen Code ran in one call, read from its stream-json (DESIGN §13), Claude Code's
// shape: each `tool_use` of an assistant message with a `tool_result` in a user message, unless the
// call is in the result's `permission_denials` (its PreToolUse hook, yoke's gate, denied it) or the
// result is an error. qwen's output does not tell a call refused before any hook (invalid
// parameters, an unknown tool) from one that failed as it ran, so an error result is never counted:
// a call the gate never ruled on is proven only when it succeeded, and a run is never held for a
// call that did not run. Checked on qwen 0.24.4 (docs/tool-control.md). qwen makes up a tool-use id
// for every attempt, so the gate keys its calls by tool and input: each is matched the same way.
import type { ExecutedToolCall } from '../../machines/effects.js';
import { gateCallId } from '../../policy/gate/gate-call-id.js';
import { isRecord } from './json-line-splitter.js';
import { objectField, stringField } from './json-value.js';
import { toolCallSummary } from './tool-call-summary.js';

/** Collects from stream-json objects as they come; `calls()` gives the executed ones in order. */
export class QwenToolCalls {
  private readonly uses = new Map<string, { name: string; input: unknown }>();
  private readonly ran: string[] = [];
  private readonly denied = new Set<string>();

  /** Fold one stream-json object. */
  take(object: Record<string, unknown>): void {
    if (object.type === 'result' && Array.isArray(object.permission_denials)) {
      for (const denial of object.permission_denials.filter(isRecord)) {
        const id = stringField(denial, 'tool_use_id');
        if (id !== null) this.denied.add(id);
      }
      return;
    }
    const content = objectField(object, 'message')?.content;
    if (!Array.isArray(content)) return;
    for (const block of content.filter(isRecord)) {
      if (object.type === 'assistant' && block.type === 'tool_use') {
        const id = stringField(block, 'id');
        if (id !== null) this.uses.set(id, { name: stringField(block, 'name') ?? '?', input: block.input ?? null });
      } else if (object.type === 'user' && block.type === 'tool_result' && block.is_error !== true) {
        const id = stringField(block, 'tool_use_id');
        if (id !== null && !this.ran.includes(id)) this.ran.push(id);
      }
    }
  }

  /** The calls that ran (a result whose call was never seen is named by its id, and matches no ruling). */
  calls(): ExecutedToolCall[] {
    return this.ran.filter((id) => !this.denied.has(id)).map((id) => {
      const use = this.uses.get(id);
      if (use === undefined) return { tool: '?', match: { by: 'callId', callId: id }, summary: `tool call ${id}` };
      return { tool: use.name, match: { by: 'callId', callId: gateCallId(null, use.name, use.input) }, summary: toolCallSummary(use.name, use.input) };
    });
  }
}
