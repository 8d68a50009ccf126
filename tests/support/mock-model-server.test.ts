// The mock model server alone, over plain HTTP: each dialect's event sequence and usage fields,
// turn consumption, side requests, errors, hangs, the request log and the standalone entry.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMockScript, type MockScript } from './mock-model-server/mock-script.js';
import { startMockModelServer, type MockModelServer } from './mock-model-server/mock-model-server.js';
import type { LoggedRequest } from './mock-model-server/request-log.js';
import { toolOutputsIn } from './mock-model-server/tool-outputs.js';
import { waitUntil } from './process-liveness.js';

interface SseMessage {
  event: string | undefined;
  data: Record<string, unknown>;
}

function parseSse(text: string): SseMessage[] {
  return text.split('\n\n').filter((chunk) => chunk.trim() !== '').map((chunk) => {
    const lines = chunk.split('\n');
    const event = lines.find((line) => line.startsWith('event: '))?.slice('event: '.length);
    const data = lines.filter((line) => line.startsWith('data: ')).map((line) => line.slice('data: '.length)).join('\n');
    return { event, data: JSON.parse(data) as Record<string, unknown> };
  });
}

let server: MockModelServer | undefined;
const dirs: string[] = [];

afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function start(script: MockScript, logFile?: string): Promise<MockModelServer> {
  server = await startMockModelServer({ script, logFile });
  return server;
}

function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  if (server === undefined) throw new Error('start the server first');
  return fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

const claudeMain = {
  model: 'claude-test', stream: true, tools: [{ name: 'Write' }],
  messages: [{ role: 'user', content: [{ type: 'text', text: '<env>\n - Primary working directory: /work/project\n</env>' }, { type: 'text', text: 'go' }] }],
};
const usage = { input: 1234, output: 56, cacheRead: 200, cacheWrite: 100 };

describe('Anthropic Messages', () => {
  it('streams a text turn with the scripted usage', async () => {
    await start([{ text: 'STATUS: DONE', usage }]);
    const res = await post('/v1/messages?beta=true', claudeMain);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = parseSse(await res.text());
    expect(events.map((e) => e.event)).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    expect(events.every((e) => e.event === e.data.type)).toBe(true);
    expect(events[0]?.data.message).toMatchObject({ model: 'claude-test', usage: { input_tokens: 1234, cache_read_input_tokens: 200, cache_creation_input_tokens: 100 } });
    expect(events[2]?.data.delta).toEqual({ type: 'text_delta', text: 'STATUS: DONE' });
    expect(events[4]?.data).toMatchObject({ delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 56 } });
  });

  it('turns writeFile into a Write tool_use at the prompt\'s working directory, and runCommand into Bash', async () => {
    await start([{ writeFile: { path: 'notes.md', content: 'hi\n' } }, { runCommand: { command: 'echo hi' } }]);
    for (const [name, input] of [['Write', { file_path: '/work/project/notes.md', content: 'hi\n' }], ['Bash', { command: 'echo hi' }]] as const) {
      const events = parseSse(await (await post('/v1/messages?beta=true', claudeMain)).text());
      expect(events[1]?.data.content_block).toMatchObject({ type: 'tool_use', name });
      expect(JSON.parse((events[2]?.data.delta as { partial_json: string }).partial_json)).toMatchObject(input);
      expect(events.find((e) => e.event === 'message_delta')?.data.delta).toMatchObject({ stop_reason: 'tool_use' });
    }
  });

  it('answers side requests without consuming turns', async () => {
    const mock = await start([{ text: 'main' }]);
    expect((await fetch(`${mock.url}/api/hello`, { method: 'HEAD' })).status).toBe(200);
    expect(await (await post('/v1/messages/count_tokens', { messages: [] })).json()).toEqual({ input_tokens: 100 });
    const title = await (await post('/v1/messages', { model: 'haiku', max_tokens: 50, messages: [{ role: 'user', content: 'title?' }] })).json() as { content: unknown[] };
    expect(title.content).toEqual([{ type: 'text', text: 'mock side answer' }]);
    expect(mock.turnsServed()).toBe(0);
    const events = parseSse(await (await post('/v1/messages', claudeMain)).text());
    expect(events[2]?.data.delta).toMatchObject({ text: 'main' });
    expect(mock.requests.map((r) => [r.kind, r.turn, r.answer])).toEqual([['side', null, 'side'], ['side', null, 'side'], ['side', null, 'side'], ['turn', 0, 'text']]);
  });
});

describe('OpenAI Responses', () => {
  const body = { model: 'gpt-test', stream: true, input: [] };

  it('streams a text turn with the scripted usage', async () => {
    await start([{ text: 'STATUS: DONE', usage }]);
    const events = parseSse(await (await post('/v1/responses', body)).text());
    expect(events.map((e) => e.event)).toEqual(['response.created', 'response.output_item.added', 'response.output_item.done', 'response.completed']);
    const response = events[3]?.data.response as Record<string, unknown>;
    expect(response).toMatchObject({ status: 'completed', model: 'gpt-test', output: [{ type: 'message', content: [{ type: 'output_text', text: 'STATUS: DONE' }] }] });
    expect(response.usage).toEqual({
      input_tokens: 1234, input_tokens_details: { cached_tokens: 200, cache_write_tokens: 100 },
      output_tokens: 56, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 1290,
    });
  });

  it('turns writeFile into a freeform apply_patch call and runCommand into exec_command', async () => {
    await start([{ writeFile: { path: 'dir/notes.md', content: 'a\nb\n' } }, { runCommand: { command: 'echo hi' } }]);
    const patch = parseSse(await (await post('/v1/responses', body)).text())[2]?.data.item;
    expect(patch).toMatchObject({ type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch\n*** Add File: dir/notes.md\n+a\n+b\n*** End Patch\n' });
    const exec = parseSse(await (await post('/v1/responses', body)).text())[2]?.data.item as { name: string; arguments: string; type: string };
    expect(exec).toMatchObject({ type: 'function_call', name: 'exec_command' });
    expect(JSON.parse(exec.arguments)).toEqual({ cmd: 'echo hi' });
  });
});

describe('OpenAI Chat Completions', () => {
  const tool = (name: string, properties: Record<string, unknown>) => ({ type: 'function', function: { name, parameters: { type: 'object', properties } } });
  const opencodeTools = [tool('bash', { command: {}, description: {} }), tool('write', { filePath: {}, content: {} })];
  const qwenTools = [tool('run_shell_command', { command: {}, is_background: {}, description: {} }), tool('write_file', { file_path: {}, content: {} })];
  const body = (tools: unknown[], system = 'You are a coding agent.') => ({ model: 'mock-model', stream: true, stream_options: { include_usage: true }, tools, messages: [{ role: 'system', content: system }, { role: 'user', content: 'go' }] });

  /** The `data:` payloads of a chat completions stream: JSON chunks, then the literal `[DONE]`. */
  async function chunks(res: Response): Promise<unknown[]> {
    const text = await res.text();
    return text.split('\n\n').filter((chunk) => chunk.startsWith('data: ')).map((chunk) => {
      const data = chunk.slice('data: '.length);
      return data === '[DONE]' ? data : JSON.parse(data) as unknown;
    });
  }

  it('streams a text turn, the usage in a last chunk with no choices, then [DONE]', async () => {
    await start([{ text: 'STATUS: DONE', usage }]);
    const res = await post('/v1/chat/completions', body(opencodeTools));
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const [text, finish, last, done] = await chunks(res);
    expect(text).toMatchObject({ object: 'chat.completion.chunk', model: 'mock-model', choices: [{ index: 0, delta: { role: 'assistant', content: 'STATUS: DONE' }, finish_reason: null }] });
    expect(finish).toMatchObject({ choices: [{ delta: {}, finish_reason: 'stop' }] });
    // OpenAI's prompt_tokens include the cached ones; there is no cache-write field in this API
    expect(last).toMatchObject({ choices: [], usage: { prompt_tokens: 1234, completion_tokens: 56, total_tokens: 1290, prompt_tokens_details: { cached_tokens: 200 } } });
    expect(done).toBe('[DONE]');
  });

  it('calls the write and shell tools the request offers, with their own argument names', async () => {
    await start([{ writeFile: { path: 'notes.md', content: 'hi\n' } }, { runCommand: { command: 'echo hi' } }, { writeFile: { path: 'notes.md', content: 'hi\n' } }, { runCommand: { command: 'ls' } }]);
    const call = async (tools: unknown[], system?: string) => {
      const [first, finish] = await chunks(await post('/v1/chat/completions', body(tools, system)));
      expect(finish).toMatchObject({ choices: [{ finish_reason: 'tool_calls' }] });
      const toolCall = (first as { choices: Array<{ delta: { tool_calls: Array<{ id: string; function: { name: string; arguments: string } }> } }> }).choices[0]!.delta.tool_calls[0]!;
      return { name: toolCall.function.name, args: JSON.parse(toolCall.function.arguments) as unknown };
    };
    expect(await call(opencodeTools)).toEqual({ name: 'write', args: { filePath: 'notes.md', content: 'hi\n' } });
    expect(await call(opencodeTools)).toEqual({ name: 'bash', args: { command: 'echo hi', description: 'Run the scripted command' } });
    // Qwen's write_file wants an absolute path: it is joined to the directory its prompt names
    expect(await call(qwenTools, "I'm currently working in the directory: /work/project\n")).toEqual({ name: 'write_file', args: { file_path: '/work/project/notes.md', content: 'hi\n' } });
    expect(await call(qwenTools)).toEqual({ name: 'run_shell_command', args: { command: 'ls', description: 'Run the scripted command', is_background: false } });
  });

  it('answers a request without tools (a session title) as a side request', async () => {
    const mock = await start([{ text: 'main' }]);
    const [title] = await chunks(await post('/v1/chat/completions', { ...body([]), tools: undefined }));
    expect(title).toMatchObject({ choices: [{ delta: { content: 'Mock side answer' } }] });
    const plain = await (await post('/v1/chat/completions', { model: 'm', messages: [] })).json();
    expect(plain).toMatchObject({ object: 'chat.completion', choices: [{ message: { role: 'assistant', content: 'Mock side answer' } }] });
    expect(mock.turnsServed()).toBe(0);
    expect(mock.requests.map((r) => [r.protocol, r.kind])).toEqual([['openai-chat', 'side'], ['openai-chat', 'side']]);
  });

  it('carries a scripted retry-after-ms as a header (OpenCode and Qwen Code wait that long before their own retries)', async () => {
    await start([{ error: { status: 500, retryAfterMs: 10 } }]);
    const res = await post('/v1/chat/completions', body(opencodeTools));
    expect(res.status).toBe(500);
    expect(res.headers.get('retry-after-ms')).toBe('10');
    expect(await res.json()).toEqual({ error: { message: 'mock error 500', type: 'server_error', code: null, param: null } });
  });
});

describe('Gemini', () => {
  const path = '/v1beta/models/gemini-test:streamGenerateContent?alt=sse';

  it('streams a text turn and a function call with the scripted usage', async () => {
    await start([{ text: 'STATUS: DONE', usage }, { writeFile: { path: 'notes.md', content: 'hi\n' } }, { runCommand: { command: 'ls' } }]);
    const [chunk] = parseSse(await (await post(path, { contents: [] })).text());
    expect(chunk?.event).toBeUndefined();
    expect(chunk?.data).toMatchObject({
      candidates: [{ content: { role: 'model', parts: [{ text: 'STATUS: DONE' }] }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 1234, candidatesTokenCount: 56, totalTokenCount: 1290, cachedContentTokenCount: 200 },
      modelVersion: 'gemini-test',
    });
    const write = parseSse(await (await post(path, { contents: [] })).text())[0]?.data;
    expect(write).toMatchObject({ candidates: [{ content: { parts: [{ functionCall: { name: 'write_file', args: { file_path: 'notes.md', content: 'hi\n' } } }] } }] });
    const shell = parseSse(await (await post(path, { contents: [] })).text())[0]?.data;
    expect(shell).toMatchObject({ candidates: [{ content: { parts: [{ functionCall: { name: 'run_shell_command', args: { command: 'ls' } } }] } }] });
  });

  it('answers JSON side checks from their schema and counts tokens, consuming nothing', async () => {
    const mock = await start([]);
    const check = await (await post('/v1beta/models/flash:generateContent', {
      generationConfig: { responseMimeType: 'application/json', responseJsonSchema: { type: 'object', properties: { reasoning: { type: 'string' }, next_speaker: { type: 'string', enum: ['user', 'model'] }, score: { type: 'integer' } } } },
    })).json() as { candidates: Array<{ content: { parts: Array<{ text: string }> } }> };
    expect(JSON.parse(check.candidates[0]?.content.parts[0]?.text ?? '')).toEqual({ reasoning: 'mock', next_speaker: 'user', score: 1 });
    expect(await (await post('/v1beta/models/flash:countTokens', {})).json()).toEqual({ totalTokens: 100 });
    expect(mock.turnsServed()).toBe(0);
  });
});

describe('errors, hangs and the end of the script', () => {
  it.each([
    ['anthropic', '/v1/messages', claudeMain, { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } }],
    ['openai', '/v1/responses', {}, { error: { message: 'slow down', type: 'rate_limit_exceeded' } }],
    ['openai-chat', '/v1/chat/completions', { tools: [{ type: 'function', function: { name: 'bash' } }] }, { error: { message: 'slow down', type: 'rate_limit_exceeded' } }],
    ['gemini', '/v1beta/models/m:streamGenerateContent', {}, { error: { code: 429, message: 'slow down', status: 'RESOURCE_EXHAUSTED', details: [{ retryDelay: '7s' }] } }],
  ])('%s: a scripted 429 has the dialect\'s error body and retry-after', async (_name, path, body, expected) => {
    await start([{ error: { status: 429, message: 'slow down', retryAfterSeconds: 7 } }, { text: 'after' }]);
    const res = await post(path, body);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(await res.json()).toMatchObject(expected);
  });

  it('gives a default message for an error turn', async () => {
    await start([{ error: { status: 401 } }]);
    const res = await post('/v1beta/models/m:streamGenerateContent', {});
    expect(await res.json()).toEqual({ error: { code: 401, message: 'mock error 401', status: 'UNAUTHENTICATED' } });
  });

  it('never answers a hang turn, and close() ends the pending request', async () => {
    const mock = await start([{ hang: true }]);
    const pending = post('/v1/responses', {}).then(() => 'answered', () => 'failed');
    expect(await waitUntil(() => mock.requests.length === 1, 5_000)).toBe(true);
    const early = await Promise.race([pending, new Promise((done) => setTimeout(() => done('pending'), 500))]);
    expect(early).toBe('pending');
    await mock.close();
    server = undefined;
    expect(await pending).toBe('failed');
    expect(mock.requests[0]).toMatchObject({ kind: 'turn', turn: 0, answer: 'hang' });
  });

  it('answers 500 once the script is exhausted and logs it', async () => {
    const mock = await start([{ text: 'only' }]);
    expect((await post('/v1/responses', {})).status).toBe(200);
    const res = await post('/v1/responses', {});
    expect(res.status).toBe(500);
    expect(JSON.stringify(await res.json())).toContain('only 1 turns');
    expect(mock.turnRequests().map((r) => [r.turn, r.answer])).toEqual([[0, 'text'], [null, 'exhausted']]);
  });

  it('answers 404 for a path no dialect serves', async () => {
    const mock = await start([]);
    expect((await fetch(`${mock.url}/nowhere`)).status).toBe(404);
    expect(mock.requests[0]).toMatchObject({ protocol: null, kind: 'unknown', answer: 'unknown' });
  });
});

describe('the request log', () => {
  it('writes every request as a JSONL line with the parsed body and redacted credentials', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mock-log-'));
    dirs.push(dir);
    const logFile = join(dir, 'requests.jsonl');
    await start([{ text: 'a' }], logFile);
    await post('/v1/responses', { model: 'gpt-test', input: [] }, { authorization: 'Bearer secret' });
    await post('/v1beta/models/m:countTokens', {}, { 'x-goog-api-key': 'secret' });
    const lines = (await readFile(logFile, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as LoggedRequest);
    expect(lines.map((l) => [l.seq, l.method, l.path, l.protocol, l.kind, l.turn])).toEqual([
      [0, 'POST', '/v1/responses', 'openai', 'turn', 0],
      [1, 'POST', '/v1beta/models/m:countTokens', 'gemini', 'side', null],
    ]);
    expect(lines[0]?.body).toEqual({ model: 'gpt-test', input: [] });
    expect(lines[0]?.headers.authorization).toBe('<redacted>');
    expect(lines[1]?.headers['x-goog-api-key']).toBe('<redacted>');
    expect(await readFile(logFile, 'utf8')).not.toContain('secret');
  });

  it('finds the tool results a request carries, in each dialect', () => {
    const logged = (protocol: LoggedRequest['protocol'], body: unknown): LoggedRequest => ({
      seq: 0, atMs: 0, method: 'POST', path: '/', query: {}, protocol, kind: 'turn', turn: 1, answer: 'text', headers: {}, body,
    });
    expect(toolOutputsIn(logged('anthropic', { messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'File created' }] }] })))
      .toEqual([{ callId: 'toolu_1', name: undefined, output: 'File created' }]);
    expect(toolOutputsIn(logged('openai', { input: [{ type: 'custom_tool_call_output', call_id: 'call_1', output: 'Success' }, { type: 'function_call_output', call_id: 'call_2', output: 'ok' }] })))
      .toEqual([{ callId: 'call_1', name: undefined, output: 'Success' }, { callId: 'call_2', name: undefined, output: 'ok' }]);
    expect(toolOutputsIn(logged('openai-chat', { messages: [{ role: 'assistant', tool_calls: [] }, { role: 'tool', tool_call_id: 'call_3', content: 'Wrote file successfully.' }] })))
      .toEqual([{ callId: 'call_3', name: undefined, output: 'Wrote file successfully.' }]);
    expect(toolOutputsIn(logged('gemini', { contents: [{ role: 'user', parts: [{ functionResponse: { id: 'w_1', name: 'write_file', response: { output: 'written' } } }] }] })))
      .toEqual([{ callId: 'w_1', name: 'write_file', output: 'written' }]);
  });
});

describe('scripts', () => {
  it('rejects a malformed script with one sentence naming where it came from', () => {
    expect(() => parseMockScript([{ text: 'ok' }, { writeFile: { path: 'x' } }], 'case.json')).toThrow(/^case\.json is not a list of mock turns: .*README\.md\.$/s);
    expect(parseMockScript([{ hang: true }, { error: { status: 503, retryAfterSeconds: 1 } }])).toHaveLength(2);
  });
});

describe('main.ts', () => {
  it('serves a script file, writes the port file and the log, and exits 0 on SIGTERM', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mock-main-'));
    dirs.push(dir);
    await writeFile(join(dir, 'script.json'), JSON.stringify([{ text: 'from file' }]));
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/mock-model-server/main.ts',
      '--script', join(dir, 'script.json'), '--port-file', join(dir, 'port'), '--log', join(dir, 'log.jsonl')], { stdio: 'ignore' });
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    expect(await waitUntil(async () => (await readFile(join(dir, 'port'), 'utf8').catch(() => '')).endsWith('\n'), 20_000)).toBe(true);
    const port = Number(await readFile(join(dir, 'port'), 'utf8'));
    const res = await fetch(`http://127.0.0.1:${port}/v1beta/models/m:streamGenerateContent?alt=sse`, { method: 'POST', body: '{}' });
    expect(await res.text()).toContain('from file');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(JSON.parse(await readFile(join(dir, 'log.jsonl'), 'utf8'))).toMatchObject({ turn: 0, answer: 'text', query: { alt: 'sse' } });
  }, 30_000);
});
