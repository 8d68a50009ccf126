// Reading what a `cmd` agent reported in $YOKE_USAGE_FILE: its usage, and optionally how its call ended.
import { z } from 'zod';
import type { AgentClassification, Usage } from '../../machines/effects.js';
import { readOptionalFile } from '../fs/read-optional-file.js';

const count = z.number().nonnegative().nullish();
/** What a command may say about its own call; `idle-timeout` and `timed-out` are yoke's to decide. */
const reportedOutcomeSchema = z.enum(['ok', 'auth-error', 'server-error', 'rate-limited', 'permission-denied', 'max-turns', 'crashed']);
const reportedUsageSchema = z.object({
  input_tokens: count,
  output_tokens: count,
  cache_read_tokens: count,
  cache_write_tokens: count,
  cost_usd: count,
  model: z.string().nullish(),
  outcome: reportedOutcomeSchema.nullish(),
  detail: z.string().nullish(),
  retry_after_seconds: count,
});
const USAGE_KEYS = ['input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens', 'cost_usd', 'model'] as const;

/** What the agent reported: usage (null = nothing said), and its own account of how the call ended. */
export interface AgentReport {
  usage: Usage | null;
  outcome: { classification: AgentClassification; detail: string | null; retryAfterMs: number | null } | null;
}

/**
 * The report in `path`: every field optional, and a missing field is unknown (null), never zero.
 * No file → nothing reported. Unreadable JSON, not an object, or a field of the wrong type →
 * nothing reported, and `warn` is told which file was ignored and why.
 */
export async function readAgentReport(path: string, warn: (message: string) => void): Promise<AgentReport> {
  const nothing: AgentReport = { usage: null, outcome: null };
  const content = await readOptionalFile(path);
  if (content === null) return nothing;
  let json: unknown;
  try {
    json = JSON.parse(content.toString('utf8'));
  } catch {
    warn(`ignored usage file ${path}: it is not valid JSON`);
    return nothing;
  }
  const parsed = reportedUsageSchema.safeParse(json);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => issue.path.join('.') || '(top level)').join(', ');
    warn(`ignored usage file ${path}: expected a JSON object with numeric token/cost fields, a string model and an optional outcome (${reportedOutcomeSchema.options.join('|')}) (bad: ${fields})`);
    return nothing;
  }
  const report = parsed.data;
  const saidUsage = USAGE_KEYS.some((key) => key in (json as object)) || !('outcome' in (json as object));
  return {
    usage: !saidUsage ? null : {
      inputTokens: report.input_tokens ?? null,
      outputTokens: report.output_tokens ?? null,
      cacheReadTokens: report.cache_read_tokens ?? null,
      cacheWriteTokens: report.cache_write_tokens ?? null,
      costUsd: report.cost_usd ?? null,
      model: report.model ?? null,
    },
    outcome: !report.outcome ? null : {
      classification: report.outcome,
      detail: report.detail ?? null,
      retryAfterMs: report.retry_after_seconds === null || report.retry_after_seconds === undefined ? null : Math.round(report.retry_after_seconds * 1000),
    },
  };
}

/** Only the usage part of the report (see `readAgentReport`). */
export async function readUsageFile(path: string, warn: (message: string) => void): Promise<Usage | null> {
  return (await readAgentReport(path, warn)).usage;
}
