// The parsed, validated form of `.loop/yoke.conf` (DESIGN §3). Plain data: journaled in `run.started`.
import { z } from 'zod';

/**
 * A lifecycle's name as `mode` writes it. Which names exist is not config's to say: the catalog of
 * lifecycles comes from the caller (config/lifecycle-catalog.ts), so any lowercase word parses here.
 */
export const modeSchema = z.string().regex(/^[a-z][a-z0-9-]*$/);
export type Mode = z.infer<typeof modeSchema>;

export const HOOK_EVENTS = ['run-start', 'iteration-start', 'iteration-end', 'done', 'bailout'] as const;
export const hookEventSchema = z.enum(HOOK_EVENTS);
export type HookEvent = z.infer<typeof hookEventSchema>;

export const BUDGET_DIMENSIONS = ['attempts', 'tokens', 'cost-usd', 'minutes', 'wall-minutes'] as const;
export const budgetDimensionSchema = z.enum(BUDGET_DIMENSIONS);
export type BudgetDimension = z.infer<typeof budgetDimensionSchema>;

/**
 * What a tool call does, as the tool-call classifier names it (DESIGN §13). The order here is the
 * order of severity, least first; policy/tool-class-severity.ts explains it.
 */
export const TOOL_CLASSES = ['read', 'edit', 'exec', 'network', 'protected', 'secret', 'destructive'] as const;
export const toolClassSchema = z.enum(TOOL_CLASSES);
export type ToolClass = z.infer<typeof toolClassSchema>;

/** What the tool policy says about a call: let it run, ask the operator, or refuse it. */
export const RULINGS = ['pass', 'hold', 'refuse'] as const;
export const rulingSchema = z.enum(RULINGS);
export type Ruling = z.infer<typeof rulingSchema>;

/** `tool-control`: rule on every tool call (`on`), not at all (`off`), or rule and record without enforcing (`advisory`). */
export const TOOL_CONTROL_MODES = ['on', 'off', 'advisory'] as const;
export const toolControlSchema = z.enum(TOOL_CONTROL_MODES);
export type ToolControl = z.infer<typeof toolControlSchema>;

/** A `tool <class> <ruling>` row: the ruling and the line it was written on (a ruling names its source). */
export const toolRuleSchema = z.object({ ruling: rulingSchema, line: z.number().int() });
export type ToolRule = z.infer<typeof toolRuleSchema>;

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

/** `artifact <path> <criterion>…`: a built file bound to the criteria that must pass with it (DESIGN §12). */
export const artifactSchema = z.object({
  /** project-relative, normalized; never inside .loop/ */
  path: z.string(),
  criteria: z.array(z.string()).min(1),
  line: z.number().int(),
});
export type Artifact = z.infer<typeof artifactSchema>;

/** `journey <name> <flow.yaml>`: a browser flow, a criterion by its name (DESIGN §12). */
export const journeySchema = z.object({
  name: z.string(),
  /** the flow file, project-relative and normalized */
  flow: z.string(),
  line: z.number().int(),
});
export type Journey = z.infer<typeof journeySchema>;

/** One `protect` argument: a normalized path, `folder/` or glob (or `auto`), and the line it was written on. */
export const protectPatternSchema = z.object({ pattern: z.string(), line: z.number().int() });
export type ProtectPattern = z.infer<typeof protectPatternSchema>;
/** Model tiers a `profile` may name, cheapest first: `escalate` climbs them in this order (DESIGN §15). */
export const TIERS = ['light', 'standard', 'strong', 'frontier'] as const;
export const tierSchema = z.enum(TIERS);
export type Tier = z.infer<typeof tierSchema>;

/** `profile <name> [tier T] [model M] <agent>`: a named candidate for a role. */
export const profileSchema = z.object({
  name: z.string(),
  /** absent = `standard` */
  tier: tierSchema,
  model: z.string().optional(),
  agent: agentSpecSchema,
  line: z.number().int(),
});
export type Profile = z.infer<typeof profileSchema>;

/** `routing fixed|escalate|economic …`: how the worker's profile is chosen. */
export const routingSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('fixed') }),
  z.object({ kind: z.literal('escalate') }),
  z.object({ kind: z.literal('economic'), objective: z.enum(['cost', 'speed', 'balanced']), minSamples: z.number().int().min(10) }),
]);
export type Routing = z.infer<typeof routingSchema>;

/** What one model costs, in US dollars per million tokens. */
export const modelPriceSchema = z.object({ inputPerMTok: z.number().nonnegative(), outputPerMTok: z.number().nonnegative() });

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
  /** `tool-control` for the built-in agents; absent (a journal written before it) = `on`. */
  toolControl: toolControlSchema.optional(),
  /** `tool <class> <ruling>` rows overriding the shipped tool policy, by class. */
  toolRules: z.partialRecord(toolClassSchema, toolRuleSchema).optional(),
  /** `artifact` directives (absent when there are none, as in journals of older yokes). */
  artifacts: z.array(artifactSchema).optional(),
  /** `journey` directives (absent when there are none). */
  journeys: z.array(journeySchema).optional(),
  /** `base-url`: where journeys open their flows (required with a journey). */
  baseUrl: z.string().optional(),
  /** `store`: `file`, or the PostgreSQL store as shown (`postgres://host:port/db`: never the user, password or query). */
  store: z.string().optional(),
  /** `redact` directives: variables whose values are kept out of journaled output, besides those whose names look secret. */
  redact: z.array(z.string()).optional(),
  /**
   * Prefixes under which git-ignored files are hashed at the baseline and compared at every
   * boundary scan: the `no-modify` prefixes. Absent in journals from before yoke did this, whose
   * runs keep not looking at ignored files.
   */
  ignoredProtected: z.array(z.string()).optional(),
  /**
   * `protect` directives (DESIGN §16): each pattern (a path, a `folder/` or a glob; `auto` for the
   * inferred set) with its line. Absent when there are none, as in journals of older yokes.
   */
  protect: z.array(protectPatternSchema).optional(),
  /** `profile` directives, in file order (absent when there are none, as in older journals). */
  profiles: z.array(profileSchema).optional(),
  /** the profile `agent` names, when it names one (its agent and model are in `agent` / `model`) */
  agentProfile: z.string().optional(),
  judgeProfile: z.string().optional(),
  scoperProfile: z.string().optional(),
  /** `routing` (absent = fixed) and `max-tier` (absent = no cap) */
  routing: routingSchema.optional(),
  maxTier: tierSchema.optional(),
  /** stories: `review on` asks a judge about every story the worker says is done (absent = off) */
  review: z.boolean().optional(),
  /** stories: DONE claims a story may fail before it is blocked (absent = 3) */
  maxStoryAttempts: z.number().int().positive().optional(),
  /** stories: what a blocked story does to the run (absent = stop) */
  onStoryBlocked: z.enum(['stop', 'skip']).optional(),
  /** `context-budget`: the "Project context" block's size in characters (absent = 8000, DESIGN §9) */
  contextBudget: z.number().int().positive().optional(),
  /** stories: how many stories run at once, each in its own git worktree (1–8; absent = serial, DESIGN §10) */
  parallel: z.number().int().min(1).max(8).optional(),
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
  toolControl: 'on',
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
