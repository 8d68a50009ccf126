// The record of every request the mock model server received, for assertions after a run.
import { appendFileSync } from 'node:fs';

/** How the server answered a request. */
export type RequestAnswer = 'text' | 'writeFile' | 'runCommand' | 'error' | 'hang' | 'side' | 'exhausted' | 'unknown';

/** One request as logged (and written as one JSONL line when a log file is given). */
export interface LoggedRequest {
  /** 0-based arrival order */
  seq: number;
  /** milliseconds since the server started */
  atMs: number;
  method: string;
  path: string;
  query: Record<string, string>;
  /** the dialect that answered, or null when no dialect owns the path */
  protocol: 'anthropic' | 'openai' | 'openai-chat' | 'gemini' | null;
  /** 'turn' = a main model request that consumed (or found no) scripted turn */
  kind: 'turn' | 'side' | 'unknown';
  /** 0-based index of the scripted turn served; null for side requests and past the script's end */
  turn: number | null;
  answer: RequestAnswer;
  /** request headers, credentials redacted */
  headers: Record<string, string>;
  /** parsed JSON body (raw text when not JSON) */
  body: unknown;
}

const secretHeaders = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'api-key']);

/** Header values as strings, with credentials replaced by "<redacted>". */
export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = secretHeaders.has(name) ? '<redacted>' : Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Keeps the requests in memory and, when `file` is given, appends each as a JSONL line at once. */
export class RequestLog {
  readonly entries: LoggedRequest[] = [];

  constructor(private readonly file?: string) {}

  /** Record a request (synchronously written, so the file is complete even if the server is killed). */
  add(entry: LoggedRequest): void {
    this.entries.push(entry);
    if (this.file !== undefined) appendFileSync(this.file, `${JSON.stringify(entry)}\n`);
  }
}
