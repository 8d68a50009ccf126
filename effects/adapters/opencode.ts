// The OpenCode adapter: `opencode run --format json`, usage summed over its `step_finish` events,
// failures read from its `error` events and from tool calls it refused.
import type { Usage } from '../../machines/effects.js';
import type { AgentGate, AgentInvocation } from './agent-invocation.js';
import type { AgentOutcome, OutputParser } from './agent-outcome.js';
import { BUILT_IN_AGENTS } from './built-in-agents.js';
import { classifyErrorText, httpVerdict } from './classify-api-error.js';
import { JsonLineSplitter } from './json-line-splitter.js';
import { countField, objectField, stringField } from './json-value.js';
import { OpencodeToolCalls } from './opencode-tool-calls.js';
import { describeExit } from './process-verdict.js';
import { retryAfterMs } from './retry-after.js';
import { shellQuote } from './shell-quote.js';
import { TextTail, oneLine } from './text-tail.js';

/**
 * `opencode run --format json [-m provider/model]`, the prompt on stdin: `run` reads stdin whenever
 * it is not a terminal and appends it to the (here empty) message. No `--auto`: OpenCode's default
 * permissions already allow editing and running commands inside the project, and `run` rejects
 * on its own every call that would need to ask (a path outside the project, reading `.env`), which
 * yoke reports as `permission-denied`. With a gate, OPENCODE_CONFIG_CONTENT loads the private
 * plugin that asks yoke's gate before every tool call (effects/gate/opencode-gate-plugin.ts).
 */
export function opencodeInvocation(model: string | null, gate: AgentGate | null = null): AgentInvocation {
  const args = ['run', '--format', 'json'];
  if (model !== null) args.push('-m', shellQuote(model));
  return { command: `exec ${BUILT_IN_AGENTS.opencode.binary} ${args.join(' ')}`, env: { ...(gate?.settingsEnv ?? {}) } };
}

/** What `run` says when it refused a tool call that needed permission (the call's `state.error`). */
const REJECTED = /rejected permission/i;

/**
 * Reads `opencode run --format json`: one JSON object per line, only the main session's events
 * (`step_start`, `text`, `tool_use`, `step_finish`, `reasoning`, `error`). Each `step_finish` is
 * one model request with its own tokens (not cumulative), so the call's usage is their sum.
 * OpenCode does not print the model it used: the model is the one yoke passed, else null.
 */
export function createOpencodeParser(model: string | null): OutputParser {
  const lines = new JsonLineSplitter();
  const stderr = new TextTail(4000);
  const steps: Record<string, unknown>[] = [];
  const errors: Record<string, unknown>[] = [];
  const refused: Record<string, unknown>[] = [];
  const tools = new OpencodeToolCalls();
  const take = (objects: Record<string, unknown>[]): void => {
    for (const event of objects) {
      tools.take(event);
      const part = objectField(event, 'part');
      if (event.type === 'step_finish' && part !== null) steps.push(part);
      else if (event.type === 'error') errors.push(objectField(event, 'error') ?? {});
      else if (event.type === 'tool_use' && part !== null) {
        const state = objectField(part, 'state');
        if (state?.status === 'error' && REJECTED.test(stringField(state, 'error') ?? '')) refused.push(part);
      }
    }
  };
  return {
    stdout: (chunk) => take(lines.push(chunk)),
    stderr: (chunk) => stderr.push(chunk),
    toolCalls: () => tools.calls(),
    finish(end) {
      take(lines.end());
      const usage = steps.length === 0 ? null : opencodeUsage(steps, model);
      const error = errors.at(-1);
      if (error !== undefined) return { usage, ...opencodeFailure(error) };
      if (refused.length > 0) return { usage, classification: 'permission-denied', detail: describeRefusals(refused), retryAfterMs: null };
      if (steps.length > 0) return { usage, classification: 'ok', detail: null, retryAfterMs: null };
      const said = stderr.lastLine();
      return { usage, classification: 'crashed', detail: `${describeExit(end)} without a finished step${said === null ? '' : `: ${said}`}`, retryAfterMs: null };
    },
  };
}

/** The sum of a field over the steps; unknown (null) as soon as one step does not report it. */
function sum(steps: Record<string, unknown>[], read: (tokens: Record<string, unknown> | null) => number | null): number | null {
  let total = 0;
  for (const step of steps) {
    const value = read(objectField(step, 'tokens'));
    if (value === null) return null;
    total += value;
  }
  return total;
}

/**
 * The steps' `tokens` summed: input excludes cache reads (OpenCode subtracts them), output and
 * reasoning are apart, cache write is what the provider reported (OpenCode writes 0 when the
 * provider's API has no such field). OpenCode prices a step from the model's listed price and
 * writes 0 when it knows none, so a total cost of 0 is recorded as unknown: `price` can then fill it.
 */
export function opencodeUsage(steps: Record<string, unknown>[], model: string | null): Usage {
  let cost = 0;
  for (const step of steps) cost += countField(step, 'cost') ?? 0;
  return {
    inputTokens: sum(steps, (tokens) => countField(tokens, 'input')),
    outputTokens: sum(steps, (tokens) => countField(tokens, 'output')),
    cacheReadTokens: sum(steps, (tokens) => countField(objectField(tokens, 'cache'), 'read')),
    cacheWriteTokens: sum(steps, (tokens) => countField(objectField(tokens, 'cache'), 'write')),
    reasoningTokens: sum(steps, (tokens) => countField(tokens, 'reasoning')),
    costUsd: cost > 0 ? cost : null,
    model,
  };
}

/**
 * How an `error` event classifies: an `APIError` carries the HTTP status of the last attempt
 * (OpenCode has already retried 429 and 5xx up to five times); a `ProviderAuthError` is an
 * authentication failure; another APIError is judged by its message; anything else is a crash.
 */
function opencodeFailure(error: Record<string, unknown>): Omit<AgentOutcome, 'usage'> {
  const name = stringField(error, 'name') ?? 'an error';
  const data = objectField(error, 'data');
  const message = stringField(data, 'message');
  const status = countField(data, 'statusCode');
  if (status !== null && status >= 400 && status <= 599) {
    const verdict = httpVerdict(status, message);
    return { ...verdict, retryAfterMs: verdict.classification === 'rate-limited' ? waitAsked(data, message) : null };
  }
  if (name === 'ProviderAuthError') return { classification: 'auth-error', detail: `opencode could not authenticate${message === null ? '' : `: ${oneLine(message)}`}`, retryAfterMs: null };
  // Only an APIError is the model API's: an UnknownError ("Unexpected server error") is OpenCode's own.
  if (name === 'APIError' && message !== null) {
    const verdict = classifyErrorText(message);
    if (verdict.classification !== 'crashed') return { ...verdict, retryAfterMs: verdict.classification === 'rate-limited' ? retryAfterMs(message) : null };
  }
  return { classification: 'crashed', detail: oneLine(`opencode reported ${name}${message === null ? '' : `: ${message}`}`), retryAfterMs: null };
}

/** The wait the API asked for: its `retry-after-ms` / `retry-after` response header, else the words of its message. */
function waitAsked(data: Record<string, unknown> | null, message: string | null): number | null {
  const headers = objectField(data, 'responseHeaders');
  const ms = Number(stringField(headers, 'retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return Math.round(ms);
  const seconds = Number(stringField(headers, 'retry-after'));
  if (Number.isFinite(seconds) && seconds > 0) return Math.round(seconds * 1000);
  return message === null ? null : retryAfterMs(message);
}

/** `1 tool call was refused: write /outside/x.txt` from the refused `tool_use` parts. */
function describeRefusals(parts: Record<string, unknown>[]): string {
  const calls = parts.slice(0, 3).map((part) => {
    const input = objectField(objectField(part, 'state'), 'input');
    const target = stringField(input, 'filePath') ?? stringField(input, 'command') ?? stringField(input, 'path');
    return [stringField(part, 'tool') ?? 'a tool', target].filter((text) => text !== null).join(' ');
  });
  const more = parts.length > 3 ? `, and ${parts.length - 3} more` : '';
  const count = parts.length === 1 ? '1 tool call was' : `${parts.length} tool calls were`;
  return oneLine(`${count} refused without asking (opencode run rejects what needs a permission prompt): ${calls.join(', ')}${more}`);
}
