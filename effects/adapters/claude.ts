// The Claude Code adapter: `claude -p` with stream-json output, judged by its final `result` object.
import type { AgentClassification, Usage } from '../../machines/effects.js';
import type { AgentGate, AgentInvocation } from './agent-invocation.js';
import type { AgentOutcome, OutputParser, ProcessEnd } from './agent-outcome.js';
import { BUILT_IN_AGENTS } from './built-in-agents.js';
import { classifyErrorText, httpVerdict } from './classify-api-error.js';
import { ClaudeToolCalls } from './claude-tool-calls.js';
import { JsonLineSplitter, isRecord } from './json-line-splitter.js';
import { countField, objectField, stringField } from './json-value.js';
import { describeExit } from './process-verdict.js';
import { retryAfterMs } from './retry-after.js';
import { describeDenials } from './tool-denials.js';
import { shellQuote } from './shell-quote.js';
import { TextTail, oneLine } from './text-tail.js';

/**
 * `claude -p --output-format stream-json --verbose --permission-mode acceptEdits [--model m]`, the
 * prompt on stdin. stream-json needs --verbose; acceptEdits lets it write files without prompting
 * (bypassPermissions is refused when running as root, so it is never used).
 */
export function claudeInvocation(model: string | null, gate: AgentGate | null = null): AgentInvocation {
  const args = ['-p', '--output-format', 'stream-json', '--verbose', '--permission-mode', 'acceptEdits'];
  if (model !== null) args.push('--model', shellQuote(model));
  if (gate !== null) {
    // The run's own hook settings (never the project's .claude/): every tool call asks yoke's gate
    // first, skills' inline shell commands too (PreSkillShellCommand; PreToolUse does not see them).
    const group = { matcher: '*', hooks: [{ type: 'command', command: gate.command, timeout: 30 }] };
    args.push('--settings', shellQuote(JSON.stringify({ hooks: { PreToolUse: [group], PreSkillShellCommand: [group] } })));
    if (gate.resume !== null) args.push('--resume', shellQuote(gate.resume));
  }
  return { command: `exec ${BUILT_IN_AGENTS.claude.binary} ${args.join(' ')}`, env: {} };
}

/** Reads claude's stream-json (or json) output: only the last `result` object counts. */
export function createClaudeParser(): OutputParser {
  const lines = new JsonLineSplitter();
  const stderr = new TextTail(4000);
  let result: Record<string, unknown> | null = null;
  let initModel: string | null = null;
  let session: string | null = null;
  const tools = new ClaudeToolCalls();
  const take = (objects: Record<string, unknown>[]): void => {
    for (const object of objects) {
      tools.take(object);
      session = stringField(object, 'session_id') ?? session;
      if (object.type === 'result') result = object;
      else if (object.type === 'system' && object.subtype === 'init') initModel = stringField(object, 'model');
    }
  };
  return {
    stdout: (chunk) => take(lines.push(chunk)),
    stderr: (chunk) => stderr.push(chunk),
    session: () => session,
    toolCalls: () => tools.calls(),
    finish(end) {
      take(lines.end());
      if (result === null) {
        const said = stderr.lastLine();
        return { usage: null, classification: 'crashed', detail: `${describeExit(end)} without a result${said === null ? '' : `: ${said}`}`, retryAfterMs: null };
      }
      return { usage: claudeUsage(result, initModel), ...claudeVerdict(result, end) };
    },
  };
}

/**
 * The usage of the whole call from the `result` object (never the per-message usage of the stream,
 * whose output_tokens is 1): input excludes cache reads and writes, which are counted apart.
 */
export function claudeUsage(result: Record<string, unknown>, initModel: string | null): Usage {
  const usage = objectField(result, 'usage');
  const thinking = countField(objectField(usage, 'output_tokens_details'), 'thinking_tokens');
  return {
    inputTokens: countField(usage, 'input_tokens'),
    outputTokens: countField(usage, 'output_tokens'),
    cacheReadTokens: countField(usage, 'cache_read_input_tokens'),
    cacheWriteTokens: countField(usage, 'cache_creation_input_tokens'),
    ...(thinking === null ? {} : { reasoningTokens: thinking }),
    costUsd: countField(result, 'total_cost_usd'),
    model: mainModel(objectField(result, 'modelUsage'), initModel),
  };
}

/** The session's model when it is among those used, else the one that used the most tokens. */
function mainModel(modelUsage: Record<string, unknown> | null, initModel: string | null): string | null {
  const names = modelUsage === null ? [] : Object.keys(modelUsage);
  if (initModel !== null && (names.length === 0 || names.includes(initModel))) return initModel;
  const tokens = (name: string): number => {
    const entry = modelUsage?.[name];
    return (countField(entry, 'inputTokens') ?? 0) + (countField(entry, 'outputTokens') ?? 0);
  };
  return names.sort((a, b) => tokens(b) - tokens(a))[0] ?? null;
}

type Verdict = Omit<AgentOutcome, 'usage'>;

function claudeVerdict(result: Record<string, unknown>, end: ProcessEnd): Verdict {
  const text = stringField(result, 'result');
  const errors = Array.isArray(result.errors) ? result.errors.filter((e): e is string => typeof e === 'string') : [];
  if (result.is_error === true) {
    if (result.subtype === 'error_max_turns' || result.terminal_reason === 'max_turns') {
      const turns = countField(result, 'num_turns');
      return verdict('max-turns', errors[0] ?? `stopped at the turn limit after ${turns ?? '?'} turns`);
    }
    const status = countField(result, 'api_error_status');
    if (status !== null) {
      const { classification, detail } = httpVerdict(status, text);
      return { classification, detail, retryAfterMs: classification === 'rate-limited' && text !== null ? retryAfterMs(text) : null };
    }
    const said = text ?? errors[0] ?? `${String(result.subtype)} (${describeExit(end)})`;
    const { classification, detail } = classifyErrorText(said);
    // An unrecognized `API Error` is still the API's (a connection failure); other recognized words
    // (a usage limit, an invalid key) classify any error text; the rest is a crash.
    const known = classification === 'crashed' && /^API Error/i.test(said) ? 'server-error' : classification;
    if (known !== 'crashed') return { classification: known, detail, retryAfterMs: known === 'rate-limited' ? retryAfterMs(said) : null };
    return verdict('crashed', `claude reported an error: ${oneLine(said)}`);
  }
  // A hook's `defer` (yoke's hold) ends the call with the deferred tool use: the run pauses on it.
  if (result.stop_reason === 'tool_deferred' || result.terminal_reason === 'tool_deferred') {
    const deferred = objectField(result, 'deferred_tool_use');
    return verdict('tool-held', `claude deferred its ${stringField(deferred, 'name') ?? 'tool'} call ${stringField(deferred, 'id') ?? ''} for the operator`.trimEnd());
  }
  const denials = Array.isArray(result.permission_denials) ? result.permission_denials.filter(isRecord) : [];
  if (denials.length > 0) return verdict('permission-denied', describeDenials(denials));
  return verdict('ok', null);
}

function verdict(classification: AgentClassification, detail: string | null): Verdict {
  return { classification, detail, retryAfterMs: null };
}
