// What an adapter reads back from one agent call: usage as the CLI reported it, and how the call ended.
import type { AgentClassification, ExecutedToolCall, Usage } from '../../machines/effects.js';
import type { ProcessGroupResult } from '../process/process-group.js';

/** How the agent's process ended, as the process runner saw it. */
export type ProcessEnd = Pick<ProcessGroupResult, 'outcome' | 'exitCode' | 'signal' | 'error'>;

/** The adapter's verdict on one call. */
export interface AgentOutcome {
  /** exactly what the CLI reported (null = unknown, never zero) */
  usage: Usage | null;
  classification: AgentClassification;
  /** one short human line explaining the classification (null when it is plainly `ok`) */
  detail: string | null;
  /** rate-limited: how long the API asked to wait, when it said */
  retryAfterMs: number | null;
}

/** Fed the agent's output as it arrives; decides the outcome once the process has ended. */
export interface OutputParser {
  stdout(chunk: Buffer): void;
  stderr(chunk: Buffer): void;
  finish(end: ProcessEnd): AgentOutcome;
  /** the CLI's session id, when it reports one (Claude Code): a held tool call resumes it */
  session?(): string | null;
  /** the tool calls the CLI reported as executed, for the gated CLIs (all the built-in ones) */
  toolCalls?(): ExecutedToolCall[];
}
