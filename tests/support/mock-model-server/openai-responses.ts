// OpenAI Responses API (Codex): `POST /v1/responses` answered as SSE.
import type { ModelProtocol } from './model-protocol.js';
import { turnUsage } from './mock-script.js';
import { retryAfterHeaders, writeJson, writeSse } from './sse-writer.js';

interface ResponsesBody {
  model?: string;
}

const errorTypes: Record<number, string> = {
  400: 'invalid_request_error', 401: 'invalid_api_key', 403: 'permission_denied', 404: 'not_found', 429: 'rate_limit_exceeded',
};

/** Codex's freeform `apply_patch` text that creates (or replaces) `path` with `content`. */
export function addFilePatch(path: string, content: string): string {
  const lines = content.endsWith('\n') ? content.slice(0, -1).split('\n') : content.split('\n');
  return `*** Begin Patch\n*** Add File: ${path}\n${lines.map((line) => `+${line}\n`).join('')}*** End Patch\n`;
}

/** The OpenAI Responses dialect. */
export const openaiResponses: ModelProtocol = {
  name: 'openai',
  owns: (req) => req.path.startsWith('/v1/responses') || (req.path === '/v1/models' && req.headers['anthropic-version'] === undefined),
  classify: (req) => (req.method === 'POST' && req.path === '/v1/responses' ? 'turn' : 'side'),
  writeTurn(res, turn, req, seq) {
    const usage = turnUsage(turn);
    const model = (req.body as ResponsesBody).model ?? 'gpt-mock';
    const id = `resp_mock_${seq}`;
    const item = 'text' in turn
      ? { type: 'message', id: `msg_mock_${seq}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: turn.text, annotations: [] }] }
      : 'writeFile' in turn
        ? { type: 'custom_tool_call', id: `ctc_mock_${seq}`, call_id: `call_mock_${seq}`, name: 'apply_patch', input: addFilePatch(turn.writeFile.path, turn.writeFile.content), status: 'completed' }
        : { type: 'function_call', id: `fc_mock_${seq}`, call_id: `call_mock_${seq}`, name: 'exec_command', arguments: JSON.stringify({ cmd: turn.runCommand.command }), status: 'completed' };
    writeSse(res, [
      { event: 'response.created', data: { type: 'response.created', response: { id, object: 'response', status: 'in_progress', model } } },
      { event: 'response.output_item.added', data: { type: 'response.output_item.added', output_index: 0, item } },
      { event: 'response.output_item.done', data: { type: 'response.output_item.done', output_index: 0, item } },
      {
        event: 'response.completed',
        data: {
          type: 'response.completed',
          response: {
            id, object: 'response', status: 'completed', model, output: [item],
            usage: {
              input_tokens: usage.input,
              input_tokens_details: { cached_tokens: usage.cacheRead ?? 0, cache_write_tokens: usage.cacheWrite ?? 0 },
              output_tokens: usage.output,
              output_tokens_details: { reasoning_tokens: 0 },
              total_tokens: usage.input + usage.output,
            },
          },
        },
      },
    ]);
  },
  writeSide(res, req) {
    if (req.path === '/v1/models') {
      writeJson(res, 200, { object: 'list', data: [], models: [] });
      return;
    }
    writeJson(res, 404, { error: { message: `mock model server: no side answer for ${req.method} ${req.path}`, type: 'not_found' } });
  },
  writeError(res, status, message, retry) {
    writeJson(res, status, { error: { message, type: errorTypes[status] ?? 'server_error', code: errorTypes[status] ?? null, param: null } }, retryAfterHeaders(retry));
  },
};
