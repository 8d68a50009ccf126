// Turning what a CLI said about a failed model API call into a classification and one line of detail.
import type { AgentClassification } from '../../machines/effects.js';
import { oneLine } from './text-tail.js';

/** An API failure as classified, with its detail line. */
export interface ApiErrorVerdict {
  classification: AgentClassification;
  detail: string;
}

/** The classification an HTTP status from the model API stands for. */
export function classifyHttpStatus(status: number): AgentClassification {
  if (status === 401 || status === 403) return 'auth-error';
  if (status === 429) return 'rate-limited';
  if (status === 408 || status === 409 || status >= 500) return 'server-error';
  return 'crashed';
}

/** `HTTP 401 from the model API: invalid x-api-key`. */
export function httpVerdict(status: number, message: string | null): ApiErrorVerdict {
  const said = message === null ? '' : `: ${oneLine(message)}`;
  return { classification: classifyHttpStatus(status), detail: `HTTP ${status} from the model API${said}` };
}

const STATUS_PATTERNS = [
  /\bstatus(?:\s+code)?[:=\s]+(\d{3})\b/i, // "unexpected status 401 Unauthorized", "status: 429"
  /"code"\s*:\s*(\d{3})\b/, // {"error":{"code":500,...}}
  /\bAPI Error:\s*(\d{3})\b/, // "API Error: 500 …"
  /\bHTTP\s*(\d{3})\b/i,
];

/** The HTTP status a message mentions, or null. */
export function statusInText(text: string): number | null {
  for (const pattern of STATUS_PATTERNS) {
    const match = pattern.exec(text);
    const status = Number(match?.[1]);
    if (status >= 400 && status <= 599) return status;
  }
  return null;
}

const KEYWORDS: [RegExp, AgentClassification][] = [
  [/rate.?limit|too many requests|usage limit|quota|resource.?exhausted/i, 'rate-limited'],
  [/unauthori[sz]ed|unauthenticated|(?:invalid|missing).{0,20}api.?key|authentication|forbidden|permission_denied/i, 'auth-error'],
  [/high demand|temporar|internal server error|overloaded|service unavailable|bad gateway|gateway timeout|stream disconnected|server.?error/i, 'server-error'],
];

/**
 * Classify an error message that may carry no status: the status when it names one, else
 * well-known phrases; `crashed` when nothing is recognized. The detail quotes the message.
 */
export function classifyErrorText(message: string): ApiErrorVerdict {
  const status = statusInText(message);
  if (status !== null) return httpVerdict(status, apiMessage(message));
  const line = oneLine(message);
  for (const [pattern, classification] of KEYWORDS) {
    if (pattern.test(message)) return { classification, detail: `the model API failed: ${line}` };
  }
  return { classification: 'crashed', detail: line };
}

/** The API's own words inside a CLI's wrapping: the `message` of an embedded error JSON, or the text of `[API Error: …]`. */
export function apiMessage(text: string): string {
  const json = /"message"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(text);
  if (json?.[1] !== undefined) return json[1].replace(/\\(.)/g, '$1');
  const bracketed = /^\[API Error:\s*([\s\S]*?)\]/.exec(text.trim());
  return bracketed?.[1] ?? text;
}
