// The Qwen Code adapter: stream-json output (Claude Code's shape), judged by its final `result` object.
import type { Usage } from '../../machines/effects.js';
import type { AgentGate, AgentInvocation } from './agent-invocation.js';
import type { AgentOutcome, OutputParser, ProcessEnd } from './agent-outcome.js';
import { BUILT_IN_AGENTS } from './built-in-agents.js';
import { classifyErrorText, httpVerdict } from './classify-api-error.js';
import { JsonLineSplitter } from './json-line-splitter.js';
import { countField, objectField, stringField } from './json-value.js';
import { describeExit } from './process-verdict.js';
import { QwenToolCalls } from './qwen-tool-calls.js';
import { retryAfterMs } from './retry-after.js';
import { shellQuote } from './shell-quote.js';
import { TextTail, oneLine } from './text-tail.js';
import { describeDenials } from './tool-denials.js';

/** qwen's exit code when it stops at `maxSessionTurns` (inherited from Gemini CLI), printing no result. */
const EXIT_TURN_LIMIT = 53;

/**
 * `qwen --output-format stream-json --approval-mode yolo [-m m]` with the prompt on stdin: with no
 * prompt argument and stdin not a terminal, qwen runs headless and takes stdin as the prompt. yolo
 * approves every tool; headless `auto-edit` does not even offer the shell tool. With a gate,
 * QWEN_CODE_SYSTEM_SETTINGS_PATH names the private settings file whose `PreToolUse` hook is yoke's
 * (effects/gate/qwen-gate-settings.ts); qwen runs that hook in yolo mode too.
 */
export function qwenInvocation(model: string | null, gate: AgentGate | null = null): AgentInvocation {
  const args = ['--output-format', 'stream-json', '--approval-mode', 'yolo'];
  if (model !== null) args.push('-m', shellQuote(model));
  return { command: `exec ${BUILT_IN_AGENTS.qwen.binary} ${args.join(' ')}`, env: { ...(gate?.settingsEnv ?? {}) } };
}

/** Reads qwen's stream-json: only the last `result` object counts; the `system/init` line names the model. */
export function createQwenParser(model: string | null): OutputParser {
  const lines = new JsonLineSplitter();
  const stderr = new TextTail(4000);
  let result: Record<string, unknown> | null = null;
  let initModel: string | null = null;
  const tools = new QwenToolCalls();
  const take = (objects: Record<string, unknown>[]): void => {
    for (const object of objects) {
      tools.take(object);
      if (object.type === 'result') result = object;
      else if (object.type === 'system' && object.subtype === 'init') initModel = stringField(object, 'model');
    }
  };
  return {
    stdout: (chunk) => take(lines.push(chunk)),
    stderr: (chunk) => stderr.push(chunk),
    toolCalls: () => tools.calls(),
    finish(end) {
      take(lines.end());
      if (result === null) return { usage: null, ...noResult(end, stderr.lastLine()) };
      return { usage: qwenUsage(objectField(result, 'usage'), initModel ?? model), ...qwenVerdict(result) };
    },
  };
}

/**
 * `result.usage`, summed by qwen over the main agent's model requests: input includes the cached
 * tokens (the OpenAI convention it passes on), cache reads apart. qwen reports no cost, and a cache
 * write only where its provider gives one.
 */
export function qwenUsage(usage: Record<string, unknown> | null, model: string | null): Usage | null {
  if (usage === null) return null;
  return {
    inputTokens: countField(usage, 'input_tokens'),
    outputTokens: countField(usage, 'output_tokens'),
    cacheReadTokens: countField(usage, 'cache_read_input_tokens'),
    cacheWriteTokens: countField(usage, 'cache_creation_input_tokens'),
    costUsd: null,
    model,
  };
}

type Verdict = Omit<AgentOutcome, 'usage'>;

/**
 * An error result names the API failure as `[API Error: <status> <message>]` after qwen's own
 * retries (7 attempts for 429 and 5xx); a missing key or the turn limit in its own words.
 */
function qwenVerdict(result: Record<string, unknown>): Verdict {
  if (result.is_error === true) {
    const said = stringField(objectField(result, 'error'), 'message') ?? `qwen reported ${String(result.subtype)}`;
    if (/max session turns/i.test(said)) return { classification: 'max-turns', detail: oneLine(said), retryAfterMs: null };
    const api = /^\[API Error:\s*(\d{3})\s+([\s\S]*?)\]/.exec(said);
    const status = Number(api?.[1]);
    if (api !== null && status >= 400 && status <= 599) {
      const verdict = httpVerdict(status, api[2] ?? null);
      return { ...verdict, retryAfterMs: verdict.classification === 'rate-limited' ? retryAfterMs(said) : null };
    }
    const { classification, detail } = classifyErrorText(said);
    // An `[API Error: …]` without a status is still the API's (a connection failure).
    const known = classification === 'crashed' && /^\[?API Error/i.test(said) ? 'server-error' : classification;
    if (known !== 'crashed') return { classification: known, detail, retryAfterMs: known === 'rate-limited' ? retryAfterMs(said) : null };
    return { classification: 'crashed', detail: `qwen reported an error: ${oneLine(said)}`, retryAfterMs: null };
  }
  const denials = Array.isArray(result.permission_denials) ? result.permission_denials : [];
  if (denials.length > 0) return { classification: 'permission-denied', detail: describeDenials(denials), retryAfterMs: null };
  return { classification: 'ok', detail: null, retryAfterMs: null };
}

/** No result line: the turn limit (exit 53, its reason on stderr) or a crash. */
function noResult(end: ProcessEnd, lastLine: string | null): Verdict {
  if (end.signal === null && end.exitCode === EXIT_TURN_LIMIT) {
    return { classification: 'max-turns', detail: `qwen reached its session turn limit (exit ${EXIT_TURN_LIMIT})${lastLine === null ? '' : `: ${lastLine}`}`, retryAfterMs: null };
  }
  return { classification: 'crashed', detail: `${describeExit(end)} without a result${lastLine === null ? '' : `: ${lastLine}`}`, retryAfterMs: null };
}
