// The tool calls OpenCode ran in one `opencode run --format json` call (DESIGN §13): each `tool_use`
// event of the main session whose part's `state.status` is `completed`. A call yoke's plugin
// refused (its `tool.execute.before` threw), one `run` rejected for want of permission, and one that
// failed as it ran all end as `error`, which the output does not tell apart, so none is counted: a
// call the gate never ruled on is proven only when it completed, and a run is never held for a call
// that did not run. Calls a sub-agent (`task`) makes are not in the main session's output. Checked on
// OpenCode 1.18.33 (docs/tool-control.md). The gate keys OpenCode's calls by tool and input (the
// plugin's `args`, the part's `state.input`): each is matched the same way.
import type { ExecutedToolCall } from '../../machines/effects.js';
import { gateCallId } from '../../policy/gate/gate-call-id.js';
import { objectField, stringField } from './json-value.js';
import { toolCallSummary } from './tool-call-summary.js';

/** Collects from `--format json` events as they come; `calls()` gives the completed ones in order. */
export class OpencodeToolCalls {
  private readonly ran = new Map<string, ExecutedToolCall>();

  /** Fold one event (a part is reported once, when its call ended). */
  take(event: Record<string, unknown>): void {
    if (event.type !== 'tool_use') return;
    const part = objectField(event, 'part');
    const state = objectField(part, 'state');
    if (part === null || state?.status !== 'completed') return;
    const id = stringField(part, 'callID') ?? stringField(part, 'id');
    if (id === null || this.ran.has(id)) return;
    const tool = stringField(part, 'tool') ?? '?';
    const input = state.input ?? null;
    this.ran.set(id, { tool, match: { by: 'callId', callId: gateCallId(null, tool, input) }, summary: toolCallSummary(tool, input) });
  }

  /** The calls that completed. */
  calls(): ExecutedToolCall[] {
    return [...this.ran.values()];
  }
}
