// What a real agent CLI itself reported as a call's usage, read back from yoke's transcript of that
// call, in the ledger's terms (docs/agents.md, "Usage: exactly as each CLI reports it").
import type { AgentCliName } from '../../support/agent-clis.js';

/** The ledger fields a test compares; null = the CLI does not report it. */
export interface ReportedUsage {
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadTokens: number | null;
  cacheWriteTokens: number | null;
  costUsd: number | null;
}

type Json = Record<string, unknown>;

const num = (value: unknown): number | null => (typeof value === 'number' ? value : null);

/** The JSON objects among a transcript's lines (yoke's header and the CLIs' banners are skipped). */
export function jsonObjects(transcript: string): Json[] {
  const objects: Json[] = [];
  for (const line of transcript.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      objects.push(JSON.parse(line) as Json);
    } catch {
      // not a JSON line
    }
  }
  return objects;
}

/**
 * claude: the final `result` (usage + `total_cost_usd`); codex: the last `turn.completed.usage`
 * (cumulative); gemini: stream-json `result.stats`; opencode: the sum of its `step_finish` tokens
 * (its cost is 0 without a price: unknown); qwen: the final `result.usage`. Undefined when the CLI
 * reported none.
 */
export function cliReportedUsage(cli: AgentCliName, transcript: string): ReportedUsage | undefined {
  const objects = jsonObjects(transcript);
  switch (cli) {
    case 'claude': {
      const result = objects.findLast((object) => object.type === 'result');
      const usage = result?.usage as Json | undefined;
      return result && usage && {
        inputTokens: num(usage.input_tokens), outputTokens: num(usage.output_tokens),
        cacheReadTokens: num(usage.cache_read_input_tokens), cacheWriteTokens: num(usage.cache_creation_input_tokens),
        costUsd: num(result.total_cost_usd),
      };
    }
    case 'codex': {
      const usage = objects.findLast((object) => object.type === 'turn.completed')?.usage as Json | undefined;
      return usage && {
        inputTokens: num(usage.input_tokens), outputTokens: num(usage.output_tokens),
        cacheReadTokens: num(usage.cached_input_tokens), cacheWriteTokens: num(usage.cache_write_input_tokens),
        costUsd: null,
      };
    }
    case 'gemini': {
      const stats = objects.findLast((object) => object.type === 'result')?.stats as Json | undefined;
      return stats && {
        inputTokens: num(stats.input_tokens), outputTokens: num(stats.output_tokens),
        cacheReadTokens: num(stats.cached), cacheWriteTokens: null,
        costUsd: null,
      };
    }
    case 'opencode': {
      const steps = objects.filter((object) => object.type === 'step_finish').map((object) => (object.part as Json).tokens as Json);
      const sum = (read: (tokens: Json) => unknown): number => steps.reduce((total, tokens) => total + (num(read(tokens)) ?? Number.NaN), 0);
      return steps.length === 0 ? undefined : {
        inputTokens: sum((t) => t.input), outputTokens: sum((t) => t.output),
        cacheReadTokens: sum((t) => (t.cache as Json).read), cacheWriteTokens: sum((t) => (t.cache as Json).write),
        costUsd: null,
      };
    }
    case 'qwen': {
      const usage = objects.findLast((object) => object.type === 'result')?.usage as Json | undefined;
      return usage && {
        inputTokens: num(usage.input_tokens), outputTokens: num(usage.output_tokens),
        cacheReadTokens: num(usage.cache_read_input_tokens), cacheWriteTokens: null,
        costUsd: null,
      };
    }
  }
}
