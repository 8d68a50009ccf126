// Anthropic Messages API (Claude Code): `POST /v1/messages[?beta=true]` answered as SSE.
import type { ServerResponse } from 'node:http';
import { isAbsolute, join } from 'node:path';
import type { AnswerTurn, ModelProtocol, ModelRequest } from './model-protocol.js';
import { turnUsage } from './mock-script.js';
import { retryAfterHeaders, writeJson, writeSse, type SseEvent } from './sse-writer.js';

interface MessagesBody {
  model?: string;
  stream?: boolean;
  tools?: unknown[];
  system?: string | Array<{ text?: string }>;
  messages?: Array<{ content?: string | Array<{ text?: string }> }>;
}

const errorTypes: Record<number, string> = {
  400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error',
  413: 'request_too_large', 429: 'rate_limit_error', 529: 'overloaded_error',
};

function promptTexts(body: MessagesBody): string[] {
  const blocks = (value: string | Array<{ text?: string }> | undefined): string[] =>
    typeof value === 'string' ? [value] : (value ?? []).map((block) => block.text ?? '');
  return [...blocks(body.system), ...(body.messages ?? []).flatMap((message) => blocks(message.content))];
}

/** The working directory Claude Code states in its prompt ("Primary working directory: …"), if any. */
export function claudeWorkingDirectory(body: unknown): string | undefined {
  for (const text of promptTexts((body ?? {}))) {
    const match = /working directory:\s*(\S+)/i.exec(text);
    if (match?.[1] !== undefined) return match[1];
  }
  return undefined;
}

function contentBlocks(turn: AnswerTurn, req: ModelRequest, seq: number): { blocks: Array<{ start: unknown; delta: unknown }>; stop: string } {
  if ('text' in turn) {
    return { blocks: [{ start: { type: 'text', text: '' }, delta: { type: 'text_delta', text: turn.text } }], stop: 'end_turn' };
  }
  const [name, input] = 'writeFile' in turn
    ? ['Write', { file_path: absolutePath(turn.writeFile.path, req), content: turn.writeFile.content }]
    : ['Bash', { command: turn.runCommand.command, description: 'Run the scripted command' }];
  return {
    blocks: [{
      start: { type: 'tool_use', id: `toolu_mock_${seq}`, name, input: {} },
      delta: { type: 'input_json_delta', partial_json: JSON.stringify(input) },
    }],
    stop: 'tool_use',
  };
}

function absolutePath(path: string, req: ModelRequest): string {
  if (isAbsolute(path)) return path;
  const cwd = claudeWorkingDirectory(req.body);
  if (cwd === undefined) throw new Error(`mock writeFile path "${path}" is relative and the request names no working directory; give an absolute path.`);
  return join(cwd, path);
}

/** The Anthropic dialect. */
export const anthropicMessages: ModelProtocol = {
  name: 'anthropic',
  // `/api/hello` is Claude Code's connectivity check (HEAD), made unless nonessential traffic is off.
  owns: (req) => req.path.startsWith('/v1/messages') || req.path.startsWith('/api/')
    || (req.path === '/v1/models' && req.headers['anthropic-version'] !== undefined),
  classify(req) {
    const body = (req.body ?? {}) as MessagesBody;
    return req.path === '/v1/messages' && Array.isArray(body.tools) && body.tools.length > 0 ? 'turn' : 'side';
  },
  writeTurn(res, turn, req, seq) {
    const usage = turnUsage(turn);
    const model = (req.body as MessagesBody).model ?? 'claude-mock';
    const { blocks, stop } = contentBlocks(turn, req, seq);
    const events: SseEvent[] = [{
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id: `msg_mock_${seq}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null,
          usage: { input_tokens: usage.input, output_tokens: 1, cache_creation_input_tokens: usage.cacheWrite ?? 0, cache_read_input_tokens: usage.cacheRead ?? 0 },
        },
      },
    }];
    blocks.forEach((block, index) => {
      events.push(
        { event: 'content_block_start', data: { type: 'content_block_start', index, content_block: block.start } },
        { event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: block.delta } },
        { event: 'content_block_stop', data: { type: 'content_block_stop', index } },
      );
    });
    events.push(
      { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: usage.output } } },
      { event: 'message_stop', data: { type: 'message_stop' } },
    );
    writeSse(res, events, { 'request-id': `req_mock_${seq}` });
  },
  writeSide(res, req, seq) {
    if (req.path.startsWith('/api/')) {
      writeJson(res, 200, {});
      return;
    }
    if (req.path === '/v1/models') {
      writeJson(res, 200, { data: [], has_more: false, first_id: null, last_id: null });
      return;
    }
    if (req.path === '/v1/messages/count_tokens') {
      writeJson(res, 200, { input_tokens: 100 });
      return;
    }
    const body = (req.body ?? {}) as MessagesBody;
    const turn: AnswerTurn = { text: 'mock side answer', usage: { input: 0, output: 0 } };
    if (body.stream === true) {
      anthropicMessages.writeTurn(res, turn, req, seq);
      return;
    }
    writeJson(res, 200, {
      id: `msg_mock_${seq}`, type: 'message', role: 'assistant', model: body.model ?? 'claude-mock',
      content: [{ type: 'text', text: 'mock side answer' }], stop_reason: 'end_turn', stop_sequence: null,
      usage: { input_tokens: 0, output_tokens: 0 },
    });
  },
  writeError(res: ServerResponse, status, message, retry) {
    const headers = { 'request-id': 'req_mock_error', ...retryAfterHeaders(retry) };
    writeJson(res, status, { type: 'error', error: { type: errorTypes[status] ?? 'api_error', message } }, headers);
  },
};
