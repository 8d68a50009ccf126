// Reading the usage an agent reported in $YOKE_USAGE_FILE (the `cmd` adapter's channel).
import { z } from 'zod';
import type { Usage } from '../machines/effects.js';
import { readOptionalFile } from './read-optional-file.js';

const count = z.number().nonnegative().nullish();
const reportedUsageSchema = z.object({
  input_tokens: count,
  output_tokens: count,
  cache_read_tokens: count,
  cache_write_tokens: count,
  cost_usd: count,
  model: z.string().nullish(),
});

/**
 * The usage in `path`: every field optional, and a missing field is unknown (null), never zero.
 * No file → null. Unreadable JSON, not an object, or a field of the wrong type → null, and `warn`
 * is told which file was ignored and why.
 */
export async function readUsageFile(path: string, warn: (message: string) => void): Promise<Usage | null> {
  const content = await readOptionalFile(path);
  if (content === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(content.toString('utf8'));
  } catch {
    warn(`ignored usage file ${path}: it is not valid JSON`);
    return null;
  }
  const parsed = reportedUsageSchema.safeParse(json);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => issue.path.join('.') || '(top level)').join(', ');
    warn(`ignored usage file ${path}: expected a JSON object with numeric token/cost fields and a string model (bad: ${fields})`);
    return null;
  }
  const usage = parsed.data;
  return {
    inputTokens: usage.input_tokens ?? null,
    outputTokens: usage.output_tokens ?? null,
    cacheReadTokens: usage.cache_read_tokens ?? null,
    cacheWriteTokens: usage.cache_write_tokens ?? null,
    costUsd: usage.cost_usd ?? null,
    model: usage.model ?? null,
  };
}
