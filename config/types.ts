// The parsed, validated form of `.loop/yoke.conf` (DESIGN §3). Plain data: journaled in `run.started`.
import { z } from 'zod';

export const MODES = ['loop', 'brute', 'saga', 'goal'] as const;
export const modeSchema = z.enum(MODES);
export type Mode = z.infer<typeof modeSchema>;

export const HOOK_EVENTS = ['run-start', 'iteration-start', 'iteration-end', 'done', 'bailout'] as const;
export const hookEventSchema = z.enum(HOOK_EVENTS);
export type HookEvent = z.infer<typeof hookEventSchema>;

export const BUDGET_DIMENSIONS = ['attempts', 'tokens', 'cost-usd', 'minutes', 'wall-minutes'] as const;
export const budgetDimensionSchema = z.enum(BUDGET_DIMENSIONS);
export type BudgetDimension = z.infer<typeof budgetDimensionSchema>;

/** The CLIs with a built-in adapter, in the order `yoke init` prefers them. */
export const BUILT_IN_AGENT_KINDS = ['claude', 'codex', 'gemini', 'opencode', 'qwen'] as const;

/** Which CLI plays a role: a built-in adapter or any shell command. */
export const agentSpecSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('claude') }),
  z.object({ kind: z.literal('codex') }),
  z.object({ kind: z.literal('gemini') }),
  z.object({ kind: z.literal('opencode') }),
  z.object({ kind: z.literal('qwen') }),
  z.object({ kind: z.literal('cmd'), command: z.string().min(1) }),
]);
export type AgentSpec = z.infer<typeof agentSpecSchema>;

/** A named shell command with the line it was declared on (for messages). */
export const namedCommandSchema = z.object({ name: z.string(), command: z.string(), line: z.number().int() });
export type NamedCommand = z.infer<typeof namedCommandSchema>;

/** What one model costs, in US dollars per million tokens. */
export const modelPriceSchema = z.object({ inputPerMTok: z.number().nonnegative(), outputPerMTok: z.number().nonnegative() });
export type ModelPrice = z.infer<typeof modelPriceSchema>;

export const configSchema = z.object({
  mode: modeSchema,
  agent: agentSpecSchema,
  judgeAgent: agentSpecSchema.optional(),
  scoperAgent: agentSpecSchema.optional(),
  model: z.string().optional(),
  judgeModel: z.string().optional(),
  scoperModel: z.string().optional(),
  maxIterations: z.number().int().positive(),
  allow: z.array(z.string()),
  noModify: z.array(z.string()),
  guards: z.array(namedCommandSchema),
  periodics: z.array(namedCommandSchema.extend({ every: z.number().int().positive() })),
  guardAfters: z.array(namedCommandSchema.extend({ periodic: z.string() })),
  hooks: z.array(z.object({ event: hookEventSchema, command: z.string(), line: z.number().int() })),
  judgeEvery: z.number().int().positive().optional(),
  maxJudgeFailures: z.number().int().positive(),
  maxChunks: z.number().int().positive(),
  accepts: z.array(namedCommandSchema),
  budgets: z.partialRecord(budgetDimensionSchema, z.number().nonnegative()),
  /** Milliseconds without agent output before the agent's process group is killed; 0 = off. */
  idleTimeoutMs: z.number().int().nonnegative(),
  /** Milliseconds a guard, periodic or accept command may run; 0 = off. */
  guardTimeoutMs: z.number().int().nonnegative(),
  /** First wait after a rate-limited agent call (doubles per consecutive one, `rate-limit-wait`); absent = 30 s. */
  rateLimitWaitMs: z.number().int().positive().optional(),
  commit: z.enum(['off', 'done', 'each']),
  /** Milliseconds an agent call may run in total (`agent-timeout`); 0 = off. */
  agentTimeoutMs: z.number().int().nonnegative().optional(),
  /** `price` directives: US dollars per million tokens, by model name as the CLI reports it. */
  prices: z.record(z.string(), modelPriceSchema).optional(),
});
export type Config = z.infer<typeof configSchema>;

/** Defaults applied when a directive is absent. */
export const CONFIG_DEFAULTS = {
  maxIterations: 50,
  maxJudgeFailures: 3,
  maxChunks: 20,
  idleTimeoutMs: 20 * 60_000,
  guardTimeoutMs: 10 * 60_000,
  commit: 'done',
  agentTimeoutMs: 0,
} as const;

/** One problem found in a config file, located to the character. */
export interface ConfigIssue {
  file: string;
  line: number;
  column: number;
  message: string;
  /** What the user should do about it. */
  hint: string;
  severity: 'error' | 'warning';
}
