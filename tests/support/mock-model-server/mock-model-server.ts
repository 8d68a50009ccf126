// A scripted model server on 127.0.0.1 speaking the Anthropic, OpenAI Responses and Gemini APIs, so
// the real agent CLIs can run offline: each main model request consumes the next scripted turn;
// side requests (titles, token counts, model lists, JSON checks) get a sensible answer and consume
// nothing. Every request is logged.
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createSocketServer, type AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import { anthropicMessages } from './anthropic-messages.js';
import { geminiGenerateContent } from './gemini-generate-content.js';
import type { MockScript, PlainTurn } from './mock-script.js';
import type { ModelProtocol, ModelRequest } from './model-protocol.js';
import { openaiChatCompletions } from './openai-chat-completions.js';
import { openaiResponses } from './openai-responses.js';
import { redactHeaders, RequestLog, type LoggedRequest, type RequestAnswer } from './request-log.js';
import { toolOutputsIn } from './tool-outputs.js';
import { writeJson } from './sse-writer.js';

/** How to start a server. */
export interface MockModelServerOptions {
  script: MockScript;
  /** default 0: any free port */
  port?: number;
  /** also append every request as a JSONL line to this file */
  logFile?: string;
  /** also accept connections on this unix socket (see loopback-bridge.mjs) */
  socketPath?: string;
}

/** A running mock model server. */
export interface MockModelServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** every request so far, in arrival order */
  requests: LoggedRequest[];
  /** the main model requests so far (those that consumed a turn or found the script exhausted) */
  turnRequests(): LoggedRequest[];
  /** how many scripted turns have been consumed */
  turnsServed(): number;
  /** stop listening and drop open connections (hung requests included) */
  close(): Promise<void>;
}

const protocols: ModelProtocol[] = [anthropicMessages, openaiResponses, openaiChatCompletions, geminiGenerateContent];

const decoders: Record<string, ((buffer: Buffer) => Buffer) | undefined> = {
  gzip: zlib.gunzipSync,
  deflate: zlib.inflateSync,
  br: zlib.brotliDecompressSync,
  zstd: (zlib as { zstdDecompressSync?: (buffer: Buffer) => Buffer }).zstdDecompressSync,
};

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  let raw: Buffer = Buffer.concat(chunks);
  if (raw.length === 0) return undefined;
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding !== 'identity') {
    const decode = decoders[encoding];
    if (decode === undefined) return `<${raw.length} bytes of ${encoding}-encoded body this Node cannot decode>`;
    raw = decode(raw);
  }
  const text = raw.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function answerOf(turn: PlainTurn): RequestAnswer {
  if ('text' in turn) return 'text';
  if ('writeFile' in turn) return 'writeFile';
  if ('runCommand' in turn) return 'runCommand';
  if ('error' in turn) return 'error';
  return 'hang';
}

/** Resolves once `path` exists (a turn's `waitFor`), or after `limitMs` (the turn is then answered anyway). */
async function fileAppears(path: string, limitMs: number): Promise<void> {
  const until = Date.now() + limitMs;
  while (!existsSync(path) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** Start a server playing `script`; resolves once it listens on 127.0.0.1. */
export async function startMockModelServer(options: MockModelServerOptions): Promise<MockModelServer> {
  const log = new RequestLog(options.logFile);
  const started = Date.now();
  let nextTurn = 0;
  let seq = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const request: ModelRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body: await readBody(req) };
    const id = seq++;
    const protocol = protocols.find((candidate) => candidate.owns(request));
    const entry: LoggedRequest = {
      seq: id, atMs: Date.now() - started, method: request.method, path: request.path, query: Object.fromEntries(url.searchParams),
      protocol: protocol?.name ?? null, kind: 'unknown', turn: null, answer: 'unknown', headers: redactHeaders(req.headers), body: request.body,
    };
    if (protocol === undefined) {
      log.add(entry);
      writeJson(res, 404, { error: { message: `mock model server: nothing serves ${request.method} ${request.path}` } });
      return;
    }
    entry.kind = protocol.classify(request);
    if (entry.kind === 'side') {
      log.add({ ...entry, answer: 'side' });
      protocol.writeSide(res, request, id);
      return;
    }
    const scripted = options.script[nextTurn];
    // a `byRound` turn answers by the request's own conversation: how many tool results it carries
    const turn = scripted !== undefined && 'byRound' in scripted
      ? scripted.byRound[Math.min(toolOutputsIn({ ...entry, kind: 'turn' }).length, scripted.byRound.length - 1)]
      : scripted;
    if (turn === undefined) {
      log.add({ ...entry, answer: 'exhausted' });
      protocol.writeError(res, 500, `mock model server: the script has only ${options.script.length} turns and this is request ${nextTurn + 1}`);
      return;
    }
    log.add({ ...entry, turn: nextTurn, answer: answerOf(turn) });
    nextTurn++;
    if ('hang' in turn) return;
    if ('error' in turn) {
      const { status, message, retryAfterSeconds, retryAfterMs } = turn.error;
      protocol.writeError(res, status, message ?? `mock error ${status}`, { seconds: retryAfterSeconds, ms: retryAfterMs });
      return;
    }
    if (turn.waitFor !== undefined) await fileAppears(turn.waitFor, 120_000);
    protocol.writeTurn(res, turn, request, id);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) writeJson(res, 500, { error: { message: `mock model server failed: ${String(error)}` } });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const socketServer = options.socketPath === undefined ? undefined : createSocketServer((socket) => server.emit('connection', socket));
  if (socketServer !== undefined) {
    await new Promise<void>((resolve, reject) => {
      socketServer.once('error', reject);
      socketServer.listen(options.socketPath, () => resolve());
    });
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests: log.entries,
    turnRequests: () => log.entries.filter((entry) => entry.kind === 'turn'),
    turnsServed: () => nextTurn,
    async close() {
      server.closeAllConnections();
      if (socketServer !== undefined) await promisify(socketServer.close.bind(socketServer))();
      await promisify(server.close.bind(server))();
    },
  };
}
