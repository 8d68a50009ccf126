// The Gemini CLI adapter: stream-json output judged by its `result` event, errors read from stderr.
import type { Usage } from '../../machines/effects.js';
import type { AgentGate, AgentInvocation } from './agent-invocation.js';
import type { AgentOutcome, OutputParser, ProcessEnd } from './agent-outcome.js';
import { BUILT_IN_AGENTS } from './built-in-agents.js';
import { apiMessage, classifyErrorText, httpVerdict, statusInText } from './classify-api-error.js';
import { GeminiToolCalls } from './gemini-tool-calls.js';
import { lastJsonDocument } from './json-document.js';
import { JsonLineSplitter } from './json-line-splitter.js';
import { countField, objectField, stringField } from './json-value.js';
import { describeExit } from './process-verdict.js';
import { retryAfterMs } from './retry-after.js';
import { shellQuote } from './shell-quote.js';
import { TextTail, oneLine } from './text-tail.js';

/** gemini's own exit codes for failures that happen before or outside an API call. */
const EXIT_AUTH = 41;
const EXIT_TURN_LIMIT = 53;

/**
 * `gemini --output-format stream-json --approval-mode yolo --skip-trust [-m m]` with the prompt on
 * stdin: with stdin not a terminal gemini runs headless and takes stdin as the prompt (no `-p`,
 * so the prompt never goes through argv). yolo offers and approves the shell tool too (auto_edit
 * offers no shell); --skip-trust trusts the project for this call only — without it headless
 * gemini exits 55 in any folder not trusted interactively before. With a gate, GEMINI_CLI_HOME
 * names the private home whose settings carry yoke's `BeforeTool` hook (effects/gate/gemini-gate-home.ts).
 */
export function geminiInvocation(model: string | null, gate: AgentGate | null = null): AgentInvocation {
  const args = ['--output-format', 'stream-json', '--approval-mode', 'yolo', '--skip-trust'];
  if (model !== null) args.push('-m', shellQuote(model));
  const env: Record<string, string> = gate?.home == null ? {} : { GEMINI_CLI_HOME: gate.home };
  return { command: `exec ${BUILT_IN_AGENTS.gemini.binary} ${args.join(' ')}`, env };
}

/** Reads gemini's stream-json (or a json-mode document) and the error report it prints on stderr. */
export function createGeminiParser(model: string | null): OutputParser {
  const lines = new JsonLineSplitter();
  const stdoutText = new TextTail(1_000_000);
  const stderr = new TextTail(64_000);
  let result: Record<string, unknown> | null = null;
  let initModel: string | null = null;
  const tools = new GeminiToolCalls();
  const take = (objects: Record<string, unknown>[]): void => {
    for (const event of objects) {
      tools.take(event);
      if (event.type === 'result') result = event;
      else if (event.type === 'init') initModel = stringField(event, 'model');
    }
  };
  return {
    stdout(chunk) {
      stdoutText.push(chunk);
      take(lines.push(chunk));
    },
    stderr: (chunk) => stderr.push(chunk),
    toolCalls: () => tools.calls(),
    finish(end) {
      take(lines.end());
      // json mode prints one pretty-printed document instead of JSON Lines.
      const document = result === null ? lastJsonDocument(stdoutText.value()) : null;
      const usage = result !== null ? streamUsage(objectField(result, 'stats'), initModel ?? model)
        : document !== null ? jsonUsage(objectField(document, 'stats'), model) : null;
      const succeeded = result !== null ? result.status === 'success' : document !== null && document.error === undefined && document.response !== undefined;
      if (succeeded) return { usage, classification: 'ok', detail: null, retryAfterMs: null };
      const said = stringField(objectField(result ?? document, 'error'), 'message');
      return { usage, ...geminiFailure(end, said, stderr.value()) };
    },
  };
}

/** stream-json `result.stats`, as gemini totals it over every model it called; input includes the cached tokens. */
export function streamUsage(stats: Record<string, unknown> | null, model: string | null): Usage | null {
  if (stats === null) return null;
  const models = Object.keys(objectField(stats, 'models') ?? {});
  return {
    inputTokens: countField(stats, 'input_tokens'),
    outputTokens: countField(stats, 'output_tokens'),
    cacheReadTokens: countField(stats, 'cached'),
    cacheWriteTokens: null,
    costUsd: null,
    model: models.length === 1 ? (models[0] ?? null) : model,
  };
}

/**
 * json mode's `stats.models[m].tokens`, totalled over the models the way stream-json totals them
 * (prompt → input, candidates → output, cached, thoughts → reasoning, which gemini does not count
 * in candidates). The model is the one serving the `main` role (a router model may be listed too).
 */
export function jsonUsage(stats: Record<string, unknown> | null, model: string | null): Usage | null {
  const models = objectField(stats, 'models');
  if (models === null) return null;
  const sum = (field: string): number | null => {
    let total: number | null = null;
    for (const name of Object.keys(models)) {
      const value = countField(objectField(models[name], 'tokens'), field);
      if (value !== null) total = (total ?? 0) + value;
    }
    return total;
  };
  const main = Object.keys(models).find((name) => objectField(objectField(models[name], 'roles'), 'main') !== null);
  return {
    inputTokens: sum('prompt'),
    outputTokens: sum('candidates'),
    cacheReadTokens: sum('cached'),
    cacheWriteTokens: null,
    reasoningTokens: sum('thoughts'),
    costUsd: null,
    model: main ?? model,
  };
}

/** Why a gemini call failed: the HTTP status in its error report when there is one, else its exit code and words. */
function geminiFailure(end: ProcessEnd, said: string | null, stderrText: string): Omit<AgentOutcome, 'usage'> {
  const report = objectField(lastJsonDocument(stderrText), 'error');
  const code = countField(report, 'code');
  const message = said ?? stringField(report, 'message');
  const reported = code !== null && code >= 400 && code <= 599 ? code : null;
  const lastLine = message === null ? lastMeaningfulLine(stderrText) : oneLine(message);
  // Without a final error report, gemini's own exit codes speak first: stderr also carries the
  // retries it made on the way ("Attempt 1 failed with status 429"), which are not the failure.
  if (reported === null && end.exitCode === EXIT_AUTH) return { classification: 'auth-error', detail: `gemini could not authenticate (exit ${EXIT_AUTH})${lastLine === null ? '' : `: ${lastLine}`}`, retryAfterMs: null };
  if (reported === null && end.exitCode === EXIT_TURN_LIMIT) return { classification: 'max-turns', detail: `gemini reached its turn limit (exit ${EXIT_TURN_LIMIT})`, retryAfterMs: null };
  const status = reported ?? (message === null ? null : statusInText(message)) ?? lastStatusInText(stderrText);
  if (status !== null) {
    const verdict = httpVerdict(status, message === null ? null : apiMessage(message));
    const wait = verdict.classification === 'rate-limited' ? retryAfterMs(stderrText) ?? (message === null ? null : retryAfterMs(message)) : null;
    return { ...verdict, retryAfterMs: wait };
  }
  if (message !== null) {
    const verdict = classifyErrorText(message);
    return { ...verdict, retryAfterMs: verdict.classification === 'rate-limited' ? retryAfterMs(message) : null };
  }
  return { classification: 'crashed', detail: `${describeExit(end)} without a result${lastLine === null ? '' : `: ${lastLine}`}`, retryAfterMs: null };
}

/** The HTTP status named last in `text` (the failure, not a retry logged before it), or null. */
function lastStatusInText(text: string): number | null {
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const status = statusInText(lines[i] ?? '');
    if (status !== null) return status;
  }
  return statusInText(text);
}

// eslint-disable-next-line no-control-regex -- the escape character is exactly what is matched
const ANSI_COLOUR = /\u001b\[[0-9;]*m/g;

/** The last stderr line that is not part of a stack trace, without terminal colours. */
function lastMeaningfulLine(text: string): string | null {
  const lines = text.replace(ANSI_COLOUR, '').split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('at ') && line !== '}');
  const last = lines.at(-1);
  return last === undefined ? null : oneLine(last);
}
