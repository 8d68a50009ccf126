// The acceptance check as an effect (DESIGN §12): journalable parameters decided purely from the
// config, and the result a machine receives. `yoke check` runs it directly; goal acceptance
// requests it as the `acceptance.check` effect (machines/effects.ts).
//
// Nothing secret is in either schema: a journey is named by its flow file, never by its selectors,
// texts or fill values; environment variables are read by the executor, never journaled; and a
// command's kept output is redacted of fill values and secret environment values before it is.
import { z } from 'zod';
import { journeyCategorySchema } from './check-report.js';

/** Labels name a proof folder: `.loop/proof/<label>/` (a run id fits). */
export const CHECK_LABEL = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The label outside a run. */
export const DEFAULT_CHECK_LABEL = 'latest';

/** One criterion, in the order it runs: a shell command (`accept`) or a browser flow (`journey`). */
export const checkCriterionSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('command'),
    name: z.string(),
    command: z.string(),
    /** kill its process group after this long; 0 = no limit (`guard-timeout`) */
    timeoutMs: z.number().int().nonnegative(),
  }),
  z.object({
    kind: z.literal('journey'),
    name: z.string(),
    /** the flow file, project-relative */
    flow: z.string(),
    /**
     * The declared journey a story's `journey:<name>` check runs (DESIGN §8): the flow runs once
     * per check under this name, its evidence named after it, whichever criteria name it. Absent
     * when the criterion is the declared journey itself (and in older journals).
     */
    journey: z.string().optional(),
  }),
]);
export type CheckCriterion = z.infer<typeof checkCriterionSchema>;

/** The journey a journey criterion runs: the declared one it names, else itself. One flow run per journey and check. */
export function journeyOf(criterion: Extract<CheckCriterion, { kind: 'journey' }>): string {
  return criterion.journey ?? criterion.name;
}

/** What to check and where the evidence goes. */
export const acceptanceCheckParamsSchema = z.object({
  /** the proof folder's name under `.loop/proof/` */
  label: z.string().regex(CHECK_LABEL),
  criteria: z.array(checkCriterionSchema).min(1),
  /** files bound to criteria: hashed before and after the criteria run */
  artifacts: z.array(z.object({ path: z.string(), criteria: z.array(z.string()).min(1) })),
  /** where journeys open their flows; null without journeys */
  baseUrl: z.string().nullable(),
  /**
   * DESIGN §16: the protection baseline's digest in force (null: none taken yet), and either the
   * protected `patterns`, whose files the executor hashes once the criteria have run (what the
   * report attests is what was on disk then), or a `digest` taken before (goal runs journaled
   * before the executor measured it copied the baseline's). Absent without `protect`.
   */
  protection: z.union([
    z.object({ digest: z.string(), baseline: z.string().nullable() }),
    z.object({ patterns: z.array(z.string()), baseline: z.string().nullable() }),
  ]).optional(),
  /**
   * `redact` directives: variables whose values are kept out of the criteria's kept output, besides
   * those whose names look secret. Only the names are journaled. Absent when there are none (and in
   * older journals).
   */
  redact: z.array(z.string()).optional(),
  /**
   * SHA-256 of the whole effective configuration (effects/acceptance/config-digest.ts), for the
   * report: `yoke check`'s loaded one, or the config a run started with (its journaled input).
   * Absent in runs started before yoke recorded it (their reports say null).
   */
  configDigest: z.string().optional(),
});
export type AcceptanceCheckParams = z.infer<typeof acceptanceCheckParamsSchema>;

/** Why a check could not start; its label's earlier evidence is left as it was (exit 2). */
export const CHECK_REFUSALS = [
  'flow-invalid', 'env-missing', 'browser-missing', 'browser-failed', 'base-url-unreachable', 'proof-unwritable',
] as const;
export const checkRefusalSchema = z.enum(CHECK_REFUSALS);
export type CheckRefusal = z.infer<typeof checkRefusalSchema>;

export const acceptanceCheckResultSchema = z.discriminatedUnion('outcome', [
  z.object({
    outcome: z.literal('completed'),
    status: z.enum(['passed', 'failed']),
    /** 0 everything passed with evidence; 1 a criterion, binding or journey failed, or the source changed */
    exitCode: z.union([z.literal(0), z.literal(1)]),
    /** the report: its path relative to `.loop/`, and the SHA-256 of its bytes */
    report: z.object({ path: z.string(), sha256: z.string() }),
    /** each criterion's verdict, with the (redacted) end of a command's output for feedback */
    criteria: z.array(z.object({
      name: z.string(),
      /** absent in results from before goal acceptance used the check (none were journaled) */
      kind: z.enum(['command', 'journey']).optional(),
      status: z.enum(['passed', 'failed']),
      exitCode: z.number().int().nullable(),
      /** how a command ended (null for a journey) */
      outcome: z.enum(['exited', 'timed-out', 'spawn-failed']).nullable().optional(),
      durationMs: z.number().nonnegative().optional(),
      excerpt: z.string(),
      /** a failed journey: why, and its first failing step (1-based index and action), null when the page never opened */
      category: journeyCategorySchema.nullable().optional(),
      failedStep: z.object({ index: z.number().int().positive(), action: z.string() }).nullable().optional(),
    })),
    /** artifact bindings that failed, with why */
    failedArtifacts: z.array(z.object({ path: z.string(), reason: z.string() })).optional(),
    sourceMatches: z.boolean(),
    /** DESIGN §16: the protected files differed from their baseline once the criteria had run (absent when they matched, or nothing is protected) */
    protectionChanged: z.literal(true).optional(),
  }),
  z.object({
    outcome: z.literal('refused'),
    exitCode: z.literal(2),
    reason: checkRefusalSchema,
    /** one sentence: what is missing, where (file:line), what to do */
    message: z.string(),
    details: z.array(z.string()),
  }),
]);
export type AcceptanceCheckResult = z.infer<typeof acceptanceCheckResultSchema>;

/** The effect's two schemas, in the shape of an entry of `effectSchemas`. */
export const acceptanceCheckEffect = {
  params: acceptanceCheckParamsSchema,
  result: acceptanceCheckResultSchema,
} as const;
