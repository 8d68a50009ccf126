// The Codex CLI adapter: `codex exec --json`, judged by its turn.completed / turn.failed events.
import type { Usage } from '../../machines/effects.js';
import type { AgentGate, AgentInvocation } from './agent-invocation.js';
import type { OutputParser } from './agent-outcome.js';
import { BUILT_IN_AGENTS } from './built-in-agents.js';
import { classifyErrorText } from './classify-api-error.js';
import { CodexToolCalls } from './codex-tool-calls.js';
import { JsonLineSplitter } from './json-line-splitter.js';
import { countField, objectField, stringField } from './json-value.js';
import { describeExit } from './process-verdict.js';
import { retryAfterMs } from './retry-after.js';
import { shellQuote } from './shell-quote.js';
import { TextTail, oneLine } from './text-tail.js';

/**
 * `codex exec --json --skip-git-repo-check --sandbox workspace-write [-m m] -`: `-` makes it read
 * the prompt from stdin (so a large prompt never goes through argv), which yoke then closes —
 * codex blocks forever on an open stdin. The default exec sandbox is read-only, where failed
 * commands do not even show in the JSON output: workspace-write lets it edit the project.
 * With a gate, the run's own `PreToolUse` hook is a `-c` override (codex's session-flags layer,
 * never the project's .codex/ or the user's config.toml); codex 0.171 runs a hook only once its
 * trust is persisted, except with `--dangerously-bypass-hook-trust`, and runs none with
 * `[features] hooks = false` (or its alias `codex_hooks`) in any config layer, which
 * `-c features.hooks=true` overrides (all checked on the installed CLI).
 */
export function codexInvocation(model: string | null, gate: AgentGate | null = null): AgentInvocation {
  const args = ['exec', '--json', '--skip-git-repo-check', '--sandbox', 'workspace-write'];
  if (model !== null) args.push('-m', shellQuote(model));
  if (gate !== null) args.push('--dangerously-bypass-hook-trust', '-c', 'features.hooks=true', '-c', shellQuote(codexHookOverride(gate.command)));
  args.push('-');
  return { command: `exec ${BUILT_IN_AGENTS.codex.binary} ${args.join(' ')}`, env: {} };
}

/**
 * The `-c` override that makes `command` codex's `PreToolUse` hook for every tool, timeout 30 s
 * (TOML inline; a JSON string is a valid TOML basic string).
 * @example codexHookOverride('yoke gate --agent codex') // 'hooks.PreToolUse=[{matcher="*",hooks=[{type="command",command="yoke gate --agent codex",timeout=30}]}]'
 */
export function codexHookOverride(command: string): string {
  return `hooks.PreToolUse=[{matcher="*",hooks=[{type="command",command=${JSON.stringify(command)},timeout=30}]}]`;
}

/**
 * Reads codex's JSON Lines. Usage comes from the last `turn.completed`: its usage is cumulative
 * since the thread started (not the turn's delta), so several turns are never summed. codex does
 * not report its model or any cost: the model is the one yoke asked for (null when codex's own
 * default was used), the cost unknown.
 */
export function createCodexParser(model: string | null): OutputParser {
  const lines = new JsonLineSplitter();
  const stderr = new TextTail(4000);
  let usage: Record<string, unknown> | null = null;
  let failure: string | null = null;
  let completed = false;
  let lastError: string | null = null;
  const declined: string[] = [];
  const tools = new CodexToolCalls();
  const take = (objects: Record<string, unknown>[]): void => {
    for (const event of objects) {
      tools.take(event);
      switch (event.type) {
        case 'turn.completed':
          completed = true;
          usage = objectField(event, 'usage') ?? usage;
          break;
        case 'turn.failed':
          failure = stringField(objectField(event, 'error'), 'message') ?? 'the turn failed';
          break;
        case 'error':
          lastError = stringField(event, 'message') ?? lastError;
          break;
        case 'item.completed': {
          const item = objectField(event, 'item');
          if (item?.status === 'declined') declined.push(stringField(item, 'command') ?? stringField(item, 'type') ?? 'an item');
          break;
        }
        default:
          break;
      }
    }
  };
  return {
    stdout: (chunk) => take(lines.push(chunk)),
    stderr: (chunk) => stderr.push(chunk),
    toolCalls: () => tools.calls(),
    finish(end) {
      take(lines.end());
      const reported = usage === null ? null : codexUsage(usage, model);
      if (failure !== null) {
        const { classification, detail } = classifyErrorText(failure);
        return { usage: reported, classification, detail, retryAfterMs: classification === 'rate-limited' ? retryAfterMs(failure) : null };
      }
      if (completed) {
        if (declined.length > 0) {
          return { usage: reported, classification: 'permission-denied', detail: oneLine(`${declined.length} action(s) declined: ${declined.join(', ')}`), retryAfterMs: null };
        }
        return { usage: reported, classification: 'ok', detail: null, retryAfterMs: null };
      }
      const said = lastError ?? stderr.lastLine();
      if (lastError !== null) {
        const { classification, detail } = classifyErrorText(lastError);
        if (classification !== 'crashed') return { usage: reported, classification, detail, retryAfterMs: classification === 'rate-limited' ? retryAfterMs(lastError) : null };
      }
      return { usage: reported, classification: 'crashed', detail: `${describeExit(end)} before the turn completed${said === null ? '' : `: ${oneLine(said)}`}`, retryAfterMs: null };
    },
  };
}

/** `turn.completed.usage` as codex reports it: input includes the cached input tokens. */
export function codexUsage(usage: Record<string, unknown>, model: string | null): Usage {
  return {
    inputTokens: countField(usage, 'input_tokens'),
    outputTokens: countField(usage, 'output_tokens'),
    cacheReadTokens: countField(usage, 'cached_input_tokens'),
    cacheWriteTokens: countField(usage, 'cache_write_input_tokens'),
    reasoningTokens: countField(usage, 'reasoning_output_tokens'),
    costUsd: null,
    model,
  };
}
