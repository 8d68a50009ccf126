// The tool calls Claude Code ran in one `claude -p` call, read from its stream-json (DESIGN §13): a
// `tool_result` whose `tool_result_meta` entry says the call was let through (`permission_decision`
// accept) and not stopped (`non_execution_kind`: a hook's or a permission rule's denial, a
// deferral, an interruption); one with no entry at all counts when it is not an error (a call
// refused before any permission check, such as malformed input or an unknown tool, is an error
// with no entry). Checked on Claude Code 2.1.332 (docs/tool-control.md). Each is matched to the
// gate's ruling by its tool-use id.
import type { ExecutedToolCall } from '../../machines/effects.js';
import { isRecord } from './json-line-splitter.js';
import { objectField, stringField } from './json-value.js';
import { toolCallSummary } from './tool-call-summary.js';

/** Collects from stream-json objects as they come; `calls()` gives the executed ones in order. */
export class ClaudeToolCalls {
  private readonly uses = new Map<string, { name: string; input: unknown }>();
  private readonly results: string[] = [];
  private readonly errors = new Set<string>();
  private readonly accepted = new Set<string>();
  private readonly judged = new Set<string>();
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
        if (id !== null && block.is_error === true) this.errors.add(id);
      }
    }
    if (object.type === 'user' && Array.isArray(object.tool_result_meta)) {
      for (const meta of object.tool_result_meta.filter(isRecord)) {
        const id = stringField(meta, 'id');
        if (id === null) continue;
        this.judged.add(id);
        if (stringField(objectField(meta, 'permission_decision'), 'decision') === 'accept') this.accepted.add(id);
        if (meta.non_execution_kind !== undefined && meta.non_execution_kind !== null) this.notExecuted.add(id);
      }
    }
  }

  /** The calls that ran (a result whose call was never seen, as after `--resume`, is named by its id). */
  calls(): ExecutedToolCall[] {
    const ran = (id: string): boolean => !this.notExecuted.has(id) && (this.judged.has(id) ? this.accepted.has(id) : !this.errors.has(id));
    return this.results.filter(ran).map((id) => {
      const use = this.uses.get(id);
      return { tool: use?.name ?? '?', match: { by: 'callId', callId: id }, summary: use === undefined ? `tool call ${id}` : toolCallSummary(use.name, use.input) };
    });
  }
}
