// The tool results a CLI sent back in a logged model request, whatever its dialect, for asserting
// that the turn after a tool call carried the call's result.
import type { LoggedRequest } from './request-log.js';

/** One tool result found in a request's history, oldest first. */
export interface ToolOutput {
  /** the call id it answers (Gemini's functionResponse.id, which the CLI makes up) */
  callId: string | undefined;
  /** the tool's name when the dialect repeats it (Gemini only) */
  name: string | undefined;
  /** the result as text */
  output: string;
}

type Block = Record<string, unknown>;

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((block) => text((block as Block).text ?? block)).join('');
  return JSON.stringify(value);
}

function anthropicOutputs(body: Block): ToolOutput[] {
  const messages = (body.messages ?? []) as Array<{ content?: unknown }>;
  return messages.flatMap((message) => (Array.isArray(message.content) ? (message.content as Block[]) : []))
    .filter((block) => block.type === 'tool_result')
    .map((block) => ({ callId: block.tool_use_id as string, name: undefined, output: text(block.content) }));
}

function openaiOutputs(body: Block): ToolOutput[] {
  const input = Array.isArray(body.input) ? (body.input as Block[]) : [];
  return input.filter((item) => item.type === 'function_call_output' || item.type === 'custom_tool_call_output')
    .map((item) => ({ callId: item.call_id as string, name: undefined, output: text(item.output) }));
}

function chatOutputs(body: Block): ToolOutput[] {
  const messages = Array.isArray(body.messages) ? (body.messages as Block[]) : [];
  return messages.filter((message) => message.role === 'tool')
    .map((message) => ({ callId: message.tool_call_id as string, name: undefined, output: text(message.content) }));
}

function geminiOutputs(body: Block): ToolOutput[] {
  const contents = (body.contents ?? []) as Array<{ parts?: Block[] }>;
  return contents.flatMap((content) => content.parts ?? [])
    .map((part) => part.functionResponse as { id?: string; name?: string; response?: unknown } | undefined)
    .filter((response) => response !== undefined)
    .map((response) => ({ callId: response.id, name: response.name, output: text((response.response as Block | undefined)?.output ?? response.response) }));
}

/** Every tool result in `request`'s conversation history, oldest first ([] for side or non-JSON requests). */
export function toolOutputsIn(request: LoggedRequest): ToolOutput[] {
  if (typeof request.body !== 'object' || request.body === null) return [];
  const body = request.body as Block;
  switch (request.protocol) {
    case 'anthropic':
      return anthropicOutputs(body);
    case 'openai':
      return openaiOutputs(body);
    case 'openai-chat':
      return chatOutputs(body);
    case 'gemini':
      return geminiOutputs(body);
    case null:
      return [];
  }
}
