// Writing a Server-Sent Events response the way the model APIs do.
import type { ServerResponse } from 'node:http';

/** One SSE event: an optional `event:` name and a JSON `data:` payload (`raw`: a string sent as is, like `[DONE]`). */
export interface SseEvent {
  event?: string;
  data: unknown;
  raw?: boolean;
}

/** Send `events` as a complete `text/event-stream` response (200) and end it. */
export function writeSse(res: ServerResponse, events: SseEvent[], headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', ...headers });
  for (const { event, data, raw } of events) {
    res.write(`${event === undefined ? '' : `event: ${event}\n`}data: ${raw === true ? String(data) : JSON.stringify(data)}\n\n`);
  }
  res.end();
}

/** Send a JSON response with `status`. */
export function writeJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

/** How long an error answer asks the client to wait: `retry-after` (seconds) and/or `retry-after-ms`. */
export interface RetryAfter {
  seconds?: number | undefined;
  ms?: number | undefined;
}

/** `{ 'retry-after': '<seconds>', 'retry-after-ms': '<ms>' }`, each only when given. */
export function retryAfterHeaders(retry: RetryAfter | undefined): Record<string, string> {
  return {
    ...(retry?.seconds === undefined ? {} : { 'retry-after': String(retry.seconds) }),
    ...(retry?.ms === undefined ? {} : { 'retry-after-ms': String(retry.ms) }),
  };
}
