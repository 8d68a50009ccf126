// OpenAI Chat Completions (OpenCode through @ai-sdk/openai-compatible, Qwen Code in `openai` auth):
// `POST /v1/chat/completions` answered as SSE `chat.completion.chunk`s, usage in a last chunk with
// empty `choices` (what `stream_options.include_usage` asks for), then `data: [DONE]`.
import { isAbsolute, join } from 'node:path';
import type { AnswerTurn, ModelProtocol, ModelRequest } from './model-protocol.js';
import { turnUsage, type MockUsage } from './mock-script.js';
import { retryAfterHeaders, writeJson, writeSse, type SseEvent } from './sse-writer.js';

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
}

interface ChatTool {
  type?: string;
  function?: { name?: string; parameters?: JsonSchema };
}

interface ChatBody {
  model?: string;
  stream?: boolean;
  tools?: ChatTool[];
  messages?: Array<{ content?: string | Array<{ text?: string }> | null }>;
}

const errorTypes: Record<number, string> = {
  400: 'invalid_request_error', 401: 'invalid_api_key', 403: 'permission_denied', 404: 'not_found', 429: 'rate_limit_exceeded',
};

/** Each CLI's name for the two scripted tools, most specific first (OpenCode `write`/`bash`, Qwen `write_file`/`run_shell_command`). */
const WRITE_TOOLS = ['write', 'write_file'];
const SHELL_TOOLS = ['bash', 'run_shell_command'];
const PATH_ARGUMENTS = ['filePath', 'file_path', 'path', 'absolute_path'];

/**
 * The working directory the CLI states in its prompt (Qwen: "I'm currently working in the directory:
 * …", OpenCode: "Working directory: …"), if any: Qwen's write_file takes absolute paths only.
 */
export function statedWorkingDirectory(body: ChatBody): string | undefined {
  for (const message of body.messages ?? []) {
    const texts = typeof message.content === 'string' ? [message.content] : (message.content ?? []).map((part) => part.text ?? '');
    for (const text of texts) {
      const match = /working (?:in the )?directory:\s*(\S+)/i.exec(text);
      if (match?.[1] !== undefined) return match[1];
    }
  }
  return undefined;
}

function offeredTool(body: ChatBody, names: string[]): { name: string; parameters: JsonSchema } {
  const tools = (body.tools ?? []).map((tool) => tool.function).filter((fn) => fn?.name !== undefined);
  for (const name of names) {
    const tool = tools.find((fn) => fn?.name === name);
    if (tool?.name !== undefined) return { name: tool.name, parameters: tool.parameters ?? {} };
  }
  const offered = tools.map((fn) => fn?.name).join(', ');
  throw new Error(`mock: the request offers none of the tools ${names.join('/')} (offered: ${offered || 'none'})`);
}

/** The tool call a scripted tool turn stands for, with the argument names the offered tool declares. */
function toolCall(turn: Exclude<AnswerTurn, { text: string }>, body: ChatBody): { name: string; arguments: Record<string, unknown> } {
  if ('writeFile' in turn) {
    const tool = offeredTool(body, WRITE_TOOLS);
    const pathArgument = PATH_ARGUMENTS.find((name) => tool.parameters.properties?.[name] !== undefined) ?? 'file_path';
    const cwd = statedWorkingDirectory(body);
    const path = isAbsolute(turn.writeFile.path) || cwd === undefined ? turn.writeFile.path : join(cwd, turn.writeFile.path);
    return { name: tool.name, arguments: { [pathArgument]: path, content: turn.writeFile.content } };
  }
  const tool = offeredTool(body, SHELL_TOOLS);
  const args: Record<string, unknown> = { command: turn.runCommand.command };
  if (tool.parameters.properties?.description !== undefined) args.description = 'Run the scripted command';
  if (tool.parameters.properties?.is_background !== undefined) args.is_background = false;
  return { name: tool.name, arguments: args };
}

function usageOf(usage: MockUsage): Record<string, unknown> {
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cacheRead ?? 0 },
  };
}

/** The SSE chunks of one answer: role + content or tool call, the finish reason, the usage chunk. */
function chunks(turn: AnswerTurn, req: ModelRequest, seq: number): SseEvent[] {
  const body = (req.body ?? {}) as ChatBody;
  const base = { id: `chatcmpl-mock-${seq}`, object: 'chat.completion.chunk', created: 0, model: body.model ?? 'mock-model' };
  const choice = (delta: unknown, finish: string | null): unknown => ({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const events: SseEvent[] = [];
  if ('text' in turn) {
    events.push({ data: choice({ role: 'assistant', content: turn.text }, null) }, { data: choice({}, 'stop') });
  } else {
    const call = toolCall(turn, body);
    events.push(
      { data: choice({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: `call_mock_${seq}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } }] }, null) },
      { data: choice({}, 'tool_calls') },
    );
  }
  events.push({ data: { ...base, choices: [], usage: usageOf(turnUsage(turn)) } }, { data: '[DONE]', raw: true });
  return events;
}

/** The OpenAI Chat Completions dialect. */
export const openaiChatCompletions: ModelProtocol = {
  name: 'openai-chat',
  owns: (req) => req.path.startsWith('/v1/chat/completions'),
  // A request that offers tools is the agent's turn; one without (a session title, a summary) is a side request.
  classify: (req) => {
    const body = (req.body ?? {}) as ChatBody;
    return req.method === 'POST' && req.path === '/v1/chat/completions' && Array.isArray(body.tools) && body.tools.length > 0 ? 'turn' : 'side';
  },
  writeTurn(res, turn, req, seq) {
    writeSse(res, chunks(turn, req, seq));
  },
  writeSide(res, req, seq) {
    const body = (req.body ?? {}) as ChatBody;
    const turn: AnswerTurn = { text: 'Mock side answer', usage: { input: 0, output: 0 } };
    if (body.stream === true) {
      writeSse(res, chunks(turn, req, seq));
      return;
    }
    writeJson(res, 200, {
      id: `chatcmpl-mock-${seq}`, object: 'chat.completion', created: 0, model: body.model ?? 'mock-model',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Mock side answer' }, finish_reason: 'stop' }],
      usage: usageOf({ input: 0, output: 0 }),
    });
  },
  writeError(res, status, message, retry) {
    writeJson(res, status, { error: { message, type: errorTypes[status] ?? 'server_error', code: errorTypes[status] ?? null, param: null } }, retryAfterHeaders(retry));
  },
};
