// The script a mock model server plays: one turn per main model request, in order.
import { z } from 'zod';

/** Token counts a turn reports, copied into the protocol's usage fields (see README.md). */
export interface MockUsage {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** One scripted answer to a main model request, as given. */
export type PlainTurn =
  | { text: string; usage?: MockUsage; waitFor?: string }
  | { writeFile: { path: string; content: string }; usage?: MockUsage; waitFor?: string }
  | { runCommand: { command: string }; usage?: MockUsage; waitFor?: string }
  | { error: { status: number; message?: string; retryAfterSeconds?: number; retryAfterMs?: number } }
  | { hang: true };

/**
 * One scripted answer; `byRound` picks it by the request's own conversation (the number of tool
 * results it carries: 0 for a call's first request, the last one past the end), so agents that run
 * at once each get their own sequence whatever order their requests arrive in.
 */
export type MockTurn = PlainTurn | { byRound: PlainTurn[] };

/** The turns, consumed one per main model request. */
export type MockScript = MockTurn[];

const count = z.number().int().nonnegative();
const usage = z.strictObject({ input: count, output: count, cacheRead: count.optional(), cacheWrite: count.optional() });
// `waitFor`: the answer is held back until that file exists (a test's "the operator did something" signal)
const waitFor = z.string().min(1).optional();
const plainTurn = z.union([
  z.strictObject({ text: z.string(), usage: usage.optional(), waitFor }),
  z.strictObject({ writeFile: z.strictObject({ path: z.string().min(1), content: z.string() }), usage: usage.optional(), waitFor }),
  z.strictObject({ runCommand: z.strictObject({ command: z.string().min(1) }), usage: usage.optional(), waitFor }),
  z.strictObject({ error: z.strictObject({ status: z.number().int().min(400).max(599), message: z.string().optional(), retryAfterSeconds: count.optional(), retryAfterMs: count.optional() }) }),
  z.strictObject({ hang: z.literal(true) }),
]);
const turn = z.union([plainTurn, z.strictObject({ byRound: z.array(plainTurn).min(1) })]);

/** Validate a script read from JSON; throws one readable sentence naming `where` when it is malformed. */
export function parseMockScript(value: unknown, where = 'mock script'): MockScript {
  const result = z.array(turn).safeParse(value);
  if (!result.success) throw new Error(`${where} is not a list of mock turns: ${z.prettifyError(result.error)}; see tests/support/mock-model-server/README.md.`);
  return result.data;
}

/** The usage a turn reports: its own, or a small fixed default. */
export function turnUsage(turn: PlainTurn): MockUsage {
  return ('usage' in turn && turn.usage) || { input: 10, output: 5 };
}
