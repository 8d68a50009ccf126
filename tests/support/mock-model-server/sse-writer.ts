// Writing a Server-Sent Events response the way the model APIs do.
import type { ServerResponse } from 'node:http';

/** One SSE event: an optional `event:` name and a JSON `data:` payload. */
export interface SseEvent {
  event?: string;
  data: unknown;
}

/** Send `events` as a complete `text/event-stream` response (200) and end it. */
export function writeSse(res: ServerResponse, events: SseEvent[], headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', ...headers });
  for (const { event, data } of events) {
    res.write(`${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`);
  }
  res.end();
}

/** Send a JSON response with `status`. */
export function writeJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

/** `{ 'retry-after': '<seconds>' }`, or no header when `seconds` is undefined. */
export function retryAfterHeaders(seconds: number | undefined): Record<string, string> {
  return seconds === undefined ? {} : { 'retry-after': String(seconds) };
}
