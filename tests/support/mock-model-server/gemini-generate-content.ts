// Gemini API (Gemini CLI): `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` for main turns,
// `:generateContent` (JSON side checks), `:countTokens`.
import type { AnswerTurn, ModelProtocol, ModelRequest } from './model-protocol.js';
import { turnUsage } from './mock-script.js';
import { retryAfterHeaders, writeJson, writeSse } from './sse-writer.js';

const statuses: Record<number, string> = {
  400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL', 503: 'UNAVAILABLE', 504: 'DEADLINE_EXCEEDED',
};

/** `<model>` and `<method>` of `/v1beta/models/<model>:<method>`, or undefined. */
export function geminiCall(path: string): { model: string; method: string } | undefined {
  const match = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(\w+)$/.exec(path);
  return match ? { model: decodeURIComponent(match[1] ?? ''), method: match[2] ?? '' } : undefined;
}

function part(turn: AnswerTurn): unknown {
  if ('text' in turn) return { text: turn.text };
  if ('writeFile' in turn) return { functionCall: { name: 'write_file', args: { file_path: turn.writeFile.path, content: turn.writeFile.content } } };
  return { functionCall: { name: 'run_shell_command', args: { command: turn.runCommand.command, description: 'Run the scripted command' } } };
}

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
}

/** A value that fits a JSON schema: enough for the CLI's structured side checks. */
function sampleOf(schema: JsonSchema | undefined, name = ''): unknown {
  if (schema?.enum?.length) return name === 'next_speaker' && schema.enum.includes('user') ? 'user' : schema.enum[0];
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  switch (type?.toLowerCase()) {
    case 'object':
      return Object.fromEntries(Object.entries(schema?.properties ?? {}).map(([key, sub]) => [key, sampleOf(sub, key)]));
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return false;
    case 'string':
      return name === 'next_speaker' ? 'user' : 'mock';
    default:
      return 'mock';
  }
}

interface GenerateBody {
  generationConfig?: { responseJsonSchema?: JsonSchema; responseSchema?: JsonSchema; responseMimeType?: string };
}

function sideText(req: ModelRequest): string {
  const config = (req.body as GenerateBody | undefined)?.generationConfig;
  const schema = config?.responseJsonSchema ?? config?.responseSchema;
  if (schema) return JSON.stringify(sampleOf(schema));
  return config?.responseMimeType === 'application/json' ? '{}' : 'mock side answer';
}

function candidate(part: unknown, model: string, id: string, usage: { input: number; output: number; cacheRead?: number }): unknown {
  return {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: usage.input,
      candidatesTokenCount: usage.output,
      totalTokenCount: usage.input + usage.output,
      ...(usage.cacheRead ? { cachedContentTokenCount: usage.cacheRead } : {}),
    },
    modelVersion: model,
    responseId: id,
  };
}

/** The Gemini dialect. */
export const geminiGenerateContent: ModelProtocol = {
  name: 'gemini',
  owns: (req) => /^\/v1(beta|alpha)?\//.test(req.path),
  classify: (req) => (geminiCall(req.path)?.method === 'streamGenerateContent' ? 'turn' : 'side'),
  writeTurn(res, turn, req, seq) {
    const model = geminiCall(req.path)?.model ?? 'gemini-mock';
    writeSse(res, [{ data: candidate(part(turn), model, `gem_mock_${seq}`, turnUsage(turn)) }]);
  },
  writeSide(res, req, seq) {
    const call = geminiCall(req.path);
    const model = call?.model ?? 'gemini-mock';
    const body = candidate({ text: sideText(req) }, model, `gem_mock_${seq}`, { input: 0, output: 0 });
    switch (call?.method) {
      case 'countTokens':
        writeJson(res, 200, { totalTokens: 100 });
        return;
      case 'generateContent':
        writeJson(res, 200, body);
        return;
      case 'streamGenerateContent':
        writeSse(res, [{ data: body }]);
        return;
      default:
        if (req.method === 'GET' && /\/models\/?$/.test(req.path)) writeJson(res, 200, { models: [] });
        else geminiGenerateContent.writeError(res, 404, `mock model server: no side answer for ${req.method} ${req.path}`);
    }
  },
  writeError(res, status, message, retry) {
    const details = retry?.seconds === undefined ? [] : [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${retry.seconds}s` }];
    writeJson(res, status, { error: { code: status, message, status: statuses[status] ?? 'UNKNOWN', ...(details.length ? { details } : {}) } }, retryAfterHeaders(retry));
  },
};
