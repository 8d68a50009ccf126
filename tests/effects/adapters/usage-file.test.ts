import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readAgentReport, readUsageFile } from '../../../effects/adapters/usage-file.js';

let dir: string;
let warnings: string[];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'yoke-usage-'));
  warnings = [];
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});
async function usageOf(content: string | null) {
  const path = join(dir, 'usage.json');
  if (content !== null) await writeFile(path, content);
  return readUsageFile(path, (message) => warnings.push(message));
}

describe('readUsageFile', () => {
  it('maps every reported field', async () => {
    const json = { input_tokens: 10, output_tokens: 20, cache_read_tokens: 3, cache_write_tokens: 4, cost_usd: 0.5, model: 'm1' };
    expect(await usageOf(JSON.stringify(json))).toEqual({
      inputTokens: 10,
      outputTokens: 20,
      cacheReadTokens: 3,
      cacheWriteTokens: 4,
      costUsd: 0.5,
      model: 'm1',
    });
    expect(warnings).toEqual([]);
  });

  it('records missing fields as unknown (null), never zero; extra fields are ignored', async () => {
    expect(await usageOf('{"output_tokens": 7, "cost_usd": null, "session": "x"}')).toEqual({
      inputTokens: null,
      outputTokens: 7,
      cacheReadTokens: null,
      cacheWriteTokens: null,
      costUsd: null,
      model: null,
    });
    expect(await usageOf('{}')).toEqual({
      inputTokens: null,
      outputTokens: null,
      cacheReadTokens: null,
      cacheWriteTokens: null,
      costUsd: null,
      model: null,
    });
    expect(warnings).toEqual([]);
  });

  it('is null without a warning when the agent wrote no file', async () => {
    expect(await usageOf(null)).toBeNull();
    expect(warnings).toEqual([]);
  });

  it('is null with a warning naming the file for invalid JSON, a non-object or a wrong type', async () => {
    for (const bad of ['{"input_tokens": 1', '[1, 2]', 'null', '{"input_tokens": "12"}', '{"cost_usd": -1}', '{"model": 5}', '']) {
      warnings = [];
      expect(await usageOf(bad)).toBeNull();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(join(dir, 'usage.json'));
    }
  });
});

describe('readAgentReport', () => {
  const reportOf = async (content: string) => {
    const path = join(dir, 'report.json');
    await writeFile(path, content);
    return readAgentReport(path, (message) => warnings.push(message));
  };

  it('a command may say how its call ended: outcome, detail and the wait it was asked for', async () => {
    expect(await reportOf('{"outcome": "rate-limited", "detail": "HTTP 429", "retry_after_seconds": 1.5}')).toEqual({
      usage: null,
      outcome: { classification: 'rate-limited', detail: 'HTTP 429', retryAfterMs: 1500 },
    });
    const both = await reportOf('{"outcome": "auth-error", "input_tokens": 3}');
    expect(both.outcome).toEqual({ classification: 'auth-error', detail: null, retryAfterMs: null });
    expect(both.usage?.inputTokens).toBe(3);
    expect(warnings).toEqual([]);
  });

  it('an outcome only yoke may decide (a timeout) is refused with a warning, and nothing is taken from the file', async () => {
    expect(await reportOf('{"outcome": "idle-timeout", "input_tokens": 3}')).toEqual({ usage: null, outcome: null });
    expect(warnings).toEqual([expect.stringMatching(/ignored usage file .*optional outcome \(ok\|auth-error\|.*\(bad: outcome\)/)]);
  });
});
