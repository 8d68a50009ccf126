// Choosing the adapter for an agent spec: how to start the call and how to read its output.
import type { AgentSpec } from '../../config/types.js';
import type { AgentGate, AgentInvocation } from './agent-invocation.js';
import type { AgentOutcome, OutputParser, ProcessEnd } from './agent-outcome.js';
import { claudeInvocation, createClaudeParser } from './claude.js';
import { cmdInvocation, createCmdParser } from './cmd.js';
import { codexInvocation, createCodexParser } from './codex.js';
import { createGeminiParser, geminiInvocation } from './gemini.js';
import { createOpencodeParser, opencodeInvocation } from './opencode.js';
import { processVerdict, type CallLimits } from './process-verdict.js';
import { createQwenParser, qwenInvocation } from './qwen.js';

/** One call's adapter: the command line to run and a fresh parser for its output. */
export interface AgentCall {
  invocation: AgentInvocation;
  parser: OutputParser;
}

/** The invocation and parser for `agent` with `model` (the `model`/`judge-model`/`scoper-model` already resolved). */
export function agentCall(agent: AgentSpec, model: string | null, gate: AgentGate | null = null): AgentCall {
  switch (agent.kind) {
    case 'cmd':
      return { invocation: cmdInvocation(agent, model), parser: createCmdParser() };
    case 'claude':
      return { invocation: claudeInvocation(model, gate), parser: createClaudeParser() };
    case 'codex':
      return { invocation: codexInvocation(model, gate), parser: createCodexParser(model) };
    case 'gemini':
      return { invocation: geminiInvocation(model, gate), parser: createGeminiParser(model) };
    case 'opencode':
      return { invocation: opencodeInvocation(model, gate), parser: createOpencodeParser(model) };
    case 'qwen':
      return { invocation: qwenInvocation(model, gate), parser: createQwenParser(model) };
  }
}

/**
 * The call's outcome: what the parser read from the CLI, except that process-level outcomes win
 * (idle timeout, hard timeout, a failed start, death by a signal); usage is kept either way.
 */
export function finishAgentCall(parser: OutputParser, end: ProcessEnd, limits: CallLimits): AgentOutcome {
  const parsed = parser.finish(end);
  const forced = processVerdict(end, limits);
  return forced === null ? parsed : { ...parsed, ...forced, retryAfterMs: null };
}
