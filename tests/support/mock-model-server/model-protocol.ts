// What the server needs from each model API dialect: which requests it owns, which of them consume a
// scripted turn, and how to write a turn, a side answer and an error in that dialect.
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { MockTurn } from './mock-script.js';
import type { RetryAfter } from './sse-writer.js';

/** A request as the protocols see it: body already decoded and parsed when it was JSON. */
export interface ModelRequest {
  method: string;
  /** path without the query */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** parsed JSON body, the raw text when not JSON, undefined when empty */
  body: unknown;
}

/** A turn that produces a model answer (errors and hangs are handled by the server itself). */
export type AnswerTurn = Extract<MockTurn, { text: string } | { writeFile: unknown } | { runCommand: unknown }>;

/** One model API dialect. */
export interface ModelProtocol {
  readonly name: 'anthropic' | 'openai' | 'openai-chat' | 'gemini';
  /** Whether this dialect serves the request at all. */
  owns(req: ModelRequest): boolean;
  /** 'turn' when the request is a main model request that consumes a scripted turn. */
  classify(req: ModelRequest): 'turn' | 'side';
  /** Answer a main request with a scripted turn; `seq` numbers ids so they stay unique. */
  writeTurn(res: ServerResponse, turn: AnswerTurn, req: ModelRequest, seq: number): void;
  /** Answer a side request (title, count tokens, model list, …) sensibly. */
  writeSide(res: ServerResponse, req: ModelRequest, seq: number): void;
  /** Answer with an API error in this dialect's shape. */
  writeError(res: ServerResponse, status: number, message: string, retry?: RetryAfter): void;
}
