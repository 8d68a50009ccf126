// The tool calls Claude Code ran in one `claude -p` call, read from its stream-json (DESIGN §13):
// every `tool_result` the CLI reports, unless its `tool_result_meta` entry says the call was not
// executed (`non_execution_kind`: a hook's or a permission rule's denial, a deferral). Checked on
// Claude Code 2.1.332 (docs/tool-control.md). Each is matched to the gate's ruling by its tool-use id.
import type { ExecutedToolCall } from '../../machines/effects.js';
import { isRecord } from './json-line-splitter.js';
import { objectField, stringField } from './json-value.js';
import { toolCallSummary } from './tool-call-summary.js';

/** Collects from stream-json objects as they come; `calls()` gives the executed ones in order. */
export class ClaudeToolCalls {
  private readonly uses = new Map<string, { name: string; input: unknown }>();
  private readonly results: string[] = [];
  private readonly notExecuted = new Set<string>();

  /** Fold one stream-json object. */
  take(object: Record<string, unknown>): void {
    const content = objectField(object, 'message')?.content;
    if (!Array.isArray(content)) return;
    for (const block of content.filter(isRecord)) {
      if (object.type === 'assistant' && block.type === 'tool_use') {
        const id = stringField(block, 'id');
        if (id !== null) this.uses.set(id, { name: stringField(block, 'name') ?? '?', input: block.input });
      } else if (object.type === 'user' && block.type === 'tool_result') {
        const id = stringField(block, 'tool_use_id');
        if (id !== null && !this.results.includes(id)) this.results.push(id);
      }
    }
    if (object.type === 'user' && Array.isArray(object.tool_result_meta)) {
      for (const meta of object.tool_result_meta.filter(isRecord)) {
        const id = stringField(meta, 'id');
        if (id !== null && meta.non_execution_kind !== undefined && meta.non_execution_kind !== null) this.notExecuted.add(id);
      }
    }
  }

  /** The calls that ran (a result whose call was never seen, as after `--resume`, is named by its id). */
  calls(): ExecutedToolCall[] {
    return this.results.filter((id) => !this.notExecuted.has(id)).map((id) => {
      const use = this.uses.get(id);
      return { tool: use?.name ?? '?', match: { by: 'callId', callId: id }, summary: use === undefined ? `tool call ${id}` : toolCallSummary(use.name, use.input) };
    });
  }
}
