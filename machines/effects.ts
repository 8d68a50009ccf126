// Every effect a machine can request, with its parameter and result schemas (journaled, zod-checked).
//
// A machine never performs an effect: it emits `request` actions whose params are one of these
// requests. The runner journals them, executes them through a handler, and feeds the result back
// as an event. Parameters are decided purely by the machine; results are external facts.
import { z } from 'zod';
import { agentSpecSchema } from '../config/types.js';
import { AGENT_ROLES } from '../config/lifecycle-catalog.js';
import { protectedFileSchema } from './protect/protection.js';
import { acceptanceCheckEffect } from './acceptance/acceptance-check.js';
import { storySchema } from '../config/prd/story.js';
import { CONTEXT_FILES, PROTECTED_CONTEXT_FILES } from './context/context-files.js';

/** Usage an agent reported for one call. Any field may be unknown (null), never silently zero. */
export const usageSchema = z.object({
  inputTokens: z.number().nonnegative().nullable(),
  outputTokens: z.number().nonnegative().nullable(),
  cacheReadTokens: z.number().nonnegative().nullable(),
  cacheWriteTokens: z.number().nonnegative().nullable(),
  /** reasoning tokens, where the CLI reports them separately (codex) */
  reasoningTokens: z.number().nonnegative().nullable().optional(),
  costUsd: z.number().nonnegative().nullable(),
  model: z.string().nullable(),
});
export type Usage = z.infer<typeof usageSchema>;

export const roleSchema = z.enum(AGENT_ROLES);
export type Role = z.infer<typeof roleSchema>;

/** The outcome of one process run by yoke (agent, guard, periodic, hook). */
export const processOutcomeSchema = z.enum(['exited', 'timed-out', 'idle-timeout', 'spawn-failed']);

/**
 * One tool call an agent CLI reported as executed, and how it is matched to the gate's ruling: by
 * `callId` (the call key the gate journals: Claude's tool-use id, Gemini's tool and input), by a
 * shell command's text (Codex's `command_execution`), or by the files a patch changed (Codex's
 * `file_change`).
 */
export const executedToolCallSchema = z.object({
  tool: z.string(),
  match: z.discriminatedUnion('by', [
    z.object({ by: z.literal('callId'), callId: z.string() }),
    z.object({ by: z.literal('command'), command: z.string() }),
    z.object({ by: z.literal('paths'), paths: z.array(z.string()) }),
  ]),
  /** one line for people: the command, the path, the tool */
  summary: z.string(),
});
export type ExecutedToolCall = z.infer<typeof executedToolCallSchema>;

/** How an agent call ended, decided by its adapter from the CLI's own fields (never the exit code alone). */
export const agentClassificationSchema = z.enum([
  'ok', 'auth-error', 'server-error', 'rate-limited', 'permission-denied', 'max-turns', 'idle-timeout', 'timed-out', 'crashed',
  /** a tool call was held for the operator (DESIGN §13): the run pauses until it is answered */
  'tool-held',
  /**
   * the CLI ran tool calls yoke's gate never ruled on, or was not started because its settings
   * switch its hooks off (DESIGN §13): the run holds for the operator. Absent from older journals.
   */
  'tool-ungated',
]);
export type AgentClassification = z.infer<typeof agentClassificationSchema>;

/** Where HEAD is: the branch it names (null when detached) and its commit (null on an unborn branch). */
export const headSchema = z.object({ branch: z.string().nullable(), sha: z.string().nullable() });
export type Head = z.infer<typeof headSchema>;

/** A lane of a parallel stories run: the story it works on (DESIGN §10). */
export const laneSchema = storySchema.shape.id;

/** Where a lane's work stands in git: the commit and the tree of the project outside `.loop/`. */
const laneGitSchema = z.object({ sha: z.string(), tree: z.string() });

export const effectSchemas = {
  /** Back up the spec files into content-addressed blobs and capture the boundary baseline tree. */
  'baseline.capture': {
    params: z.object({
      specFiles: z.array(z.string()),
      /** prefixes whose git-ignored files are hashed into the tree too (the `no-modify` ones); absent = none */
      ignoredUnder: z.array(z.string()).optional(),
    }),
    result: z.object({
      /** spec file name (relative to .loop/) → sha256 of its content, or null when absent. */
      specFiles: z.record(z.string(), z.string().nullable()),
      /** git tree id of the project outside .loop/ when the run started. */
      tree: z.string(),
      /** HEAD when the run started: its branch is the run's (absent in journals from before yoke watched HEAD) */
      head: headSchema.optional(),
    }),
  },
  /** Put every spec file back to its backed-up content (absent ones are removed). */
  'spec.restore': {
    params: z.object({
      /** parallel stories: the lane (its story id) whose worktree this runs in; absent = the main working tree */
      lane: laneSchema.optional(), specFiles: z.record(z.string(), z.string().nullable()) }),
    result: z.object({
      restored: z.array(z.string()),
      /** content that was displaced by the restore, kept as blobs so nothing is lost. */
      displaced: z.record(z.string(), z.string()),
      /**
       * the files put back as the run held them when the restore ran, where that was newer than
       * `specFiles` (the user's edit of prd.yaml journaled after the restore was decided); absent when none was
       */
      held: z.record(z.string(), z.string().nullable()).optional(),
    }),
  },
  /** Run a worker/judge/scoper agent once. */
  'agent.spawn': {
    params: z.object({
      /** parallel stories: the lane (its story id) whose worktree this runs in; absent = the main working tree */
      lane: laneSchema.optional(),
      role: roleSchema,
      iteration: z.number().int(),
      /** saga: the chunk this call belongs to */
      chunk: z.number().int().optional(),
      /** goal: the attempt this call belongs to */
      attempt: z.number().int().optional(),
      /** stories: the story this call works on */
      story: z.string().optional(),
      agent: agentSpecSchema,
      model: z.string().nullable(),
      /** the `profile` this call runs as (absent when the config declares none) */
      profile: z.string().optional(),
      /** `routing escalate` (runs that route by sequence): why this call runs on its rung, e.g. after which failed gates */
      routeReason: z.string().optional(),
      prompt: z.string(),
      idleTimeoutMs: z.number().int().nonnegative(),
      /** hard limit for the whole call (`agent-timeout`); absent = none */
      timeoutMs: z.number().int().positive().optional(),
      /** `redact` variables whose values are kept out of `detail`, besides secret-looking names; absent = none */
      redact: z.array(z.string()).optional(),
      /** the agent session to resume (after a held tool call was answered); absent = a fresh session */
      resume: z.string().optional(),
      /**
       * The context layer's files yoke holds during the call (DESIGN §9): name → the blob of its
       * content before the call (null = absent). An agent's change to one is restored when the call
       * ends. Absent without the context layer.
       */
      protect: z.record(z.enum(PROTECTED_CONTEXT_FILES), z.string().nullable()).optional(),
    }),
    result: z.object({
      outcome: processOutcomeSchema,
      exitCode: z.number().int().nullable(),
      signal: z.string().nullable(),
      durationMs: z.number().nonnegative(),
      usage: usageSchema.nullable(),
      /** transcript path relative to .loop/ */
      transcript: z.string(),
      /** what the adapter decided from the CLI's own fields (absent in journals from before adapters) */
      classification: agentClassificationSchema.optional(),
      /** one line explaining the classification (secret values redacted) */
      detail: z.string().nullable().optional(),
      /** rate-limited: how long the API asked to wait, when it said */
      retryAfterMs: z.number().nonnegative().nullable().optional(),
      /** epoch ms when the call ended: lets the machine schedule a rate-limit wait without a clock */
      endedAt: z.number().optional(),
      /**
       * The tool calls the CLI reported as executed, in order, each as matched against the gate's
       * `tool.ruled` records of this call (`yoke replay --verify` matches them again). Set for the
       * calls of gated agents in runs started since yoke collects them; absent otherwise.
       */
      toolCalls: z.array(executedToolCallSchema).optional(),
      /** tool-held: the first held call's hold id, and the session to resume (null: the CLI cannot) */
      toolHold: z.object({ id: z.string(), session: z.string().nullable() }).optional(),
      /** the `protect`ed context files the agent changed and yoke put back, and the sha256 of what it had written (absent = none) */
      contextRestored: z.object({ restored: z.array(z.string()), displaced: z.record(z.string(), z.string()) }).optional(),
    }),
  },
  /**
   * Read `.yoke/context/` ahead of an agent call (DESIGN §9): the "Project context" block within
   * `budget` characters, what each file contributed, and blobs of the files yoke protects during
   * the call. The block becomes part of the call's journaled prompt; replay never reads the files.
   */
  'context.read': {
    params: z.object({ lane: laneSchema.optional(), budget: z.number().int().positive() }),
    result: z.object({
      block: z.string(),
      files: z.array(z.object({
        name: z.enum(CONTEXT_FILES),
        /** the file's size, null when it does not exist */
        bytes: z.number().int().nonnegative().nullable(),
        /** characters of it the block carries */
        injected: z.number().int().nonnegative(),
      })),
      /** PROJECT.md and DECISIONS.md as they were: the blob of each (null = absent) */
      guard: z.record(z.enum(PROTECTED_CONTEXT_FILES), z.string().nullable()),
    }),
  },
  /** Read the first line of notes.md. */
  'notes.read': {
    params: z.object({
      /** parallel stories: the lane (its story id) whose worktree this runs in; absent = the main working tree */
      lane: laneSchema.optional(), file: z.string() }),
    result: z.object({ firstLine: z.string().nullable() }),
  },
  /** List project paths (outside .loop/) that differ from the baseline tree. */
  'boundary.scan': {
    params: z.object({
      /** parallel stories: the lane (its story id) whose worktree this runs in; absent = the main working tree */
      lane: laneSchema.optional(),
      baseline: z.string(),
      /** where yoke left HEAD: the run's branch, at the baseline commit or yoke's last commit; absent = HEAD is not checked */
      head: headSchema.optional(),
      /** the baseline's `ignoredUnder`: new git-ignored files there count as added; absent = none */
      ignoredUnder: z.array(z.string()).optional(),
    }),
    result: z.object({
      changed: z.array(z.string()),
      /** HEAD now (only when the params name the expected one) */
      head: headSchema.extend({
        /** the expected commit when HEAD no longer contains it (reset, rebased or amended away), so it can be recovered */
        lost: z.string().nullable(),
      }).optional(),
    }),
  },
  /** Run one guard, periodic, guard-after or (goal) accept command. */
  'check.run': {
    params: z.object({
      /** parallel stories: the lane (its story id) whose worktree this runs in; absent = the main working tree */
      lane: laneSchema.optional(),
      kind: z.enum(['guard', 'periodic', 'guard-after', 'accept']),
      name: z.string(),
      command: z.string(),
      iteration: z.number().int(),
      timeoutMs: z.number().int().nonnegative(),
      /** `redact` variables whose values are kept out of `excerpt`, besides secret-looking names; absent = none */
      redact: z.array(z.string()).optional(),
    }),
    result: z.object({
      outcome: processOutcomeSchema,
      exitCode: z.number().int().nullable(),
      signal: z.string().nullable(),
      durationMs: z.number().nonnegative(),
      /** the last part of combined stdout+stderr, for guard-results.md (secret values redacted) */
      excerpt: z.string(),
    }),
  },
  /**
   * Goal acceptance (DESIGN §12): run the criteria (`accept` commands and `journey` flows), hash the
   * bound artifacts before and after, and write `.loop/proof/<label>/report.json`. The result names
   * the report's path and digest; it never holds a fill value, a selector or an expected text.
   */
  'acceptance.check': acceptanceCheckEffect,
  /** Write a file under .loop/ (guard-results.md and other yoke-owned views). */
  'file.write': {
    params: z.object({
      /** parallel stories: the lane (its story id) whose worktree this runs in; absent = the main working tree */
      lane: laneSchema.optional(), file: z.string(), content: z.string() }),
    result: z.object({ sha256: z.string() }),
  },
  /** Fire a hook (fire-and-forget: the machine never waits for it). */
  'hook.fire': {
    params: z.object({ event: z.string(), command: z.string(), iteration: z.number().int() }),
    result: z.object({ started: z.boolean() }),
  },
  /** Look at a file under .loop/: does it exist, its first line, is it blank (verdict, saga notes, sub-plan). */
  'file.inspect': {
    params: z.object({ file: z.string() }),
    result: z.object({
      exists: z.boolean(),
      firstLine: z.string().nullable(),
      blank: z.boolean(),
      /** `<mtime ns>:<size>`, to tell whether a file was written since an earlier look (null when absent) */
      stamp: z.string().nullable().default(null),
    }),
  },
  /** Read a whole file under .loop/ (its content becomes a journaled fact, e.g. for saga-log.md). */
  'file.read': {
    params: z.object({
      /** parallel stories: the lane (its story id) whose worktree this runs in; absent = the main working tree */
      lane: laneSchema.optional(), file: z.string() }),
    result: z.object({ content: z.string().nullable() }),
  },
  /** Overwrite only the first line of a notes file (brute: `STATUS: IN_PROGRESS` after a judge FAIL). */
  'notes.reset': {
    params: z.object({ file: z.string(), firstLine: z.string() }),
    result: z.object({ changed: z.boolean() }),
  },
  /** Read the wall clock (only for `budget wall-minutes`): time enters the machine as a journaled fact. */
  'clock.read': {
    params: z.object({
      /** parallel stories: the lane (its story id) whose worktree this runs in; absent = the main working tree */
      lane: laneSchema.optional(), purpose: z.string() }),
    result: z.object({ now: z.number() }),
  },
  /** Wait until a moment decided by the machine (a rate limit): re-run after a crash, it waits only what is left. */
  'wait.until': {
    params: z.object({ lane: laneSchema.optional(), until: z.number(), reason: z.string() }),
    result: z.object({ waitedMs: z.number().nonnegative() }),
  },
  /** List the files the `protect` patterns cover now, keeping each one's content as a blob (DESIGN §16). */
  'protect.scan': {
    params: z.object({
      /** parallel stories: the lane (its story id) whose worktree this runs in; absent = the main working tree */
      lane: laneSchema.optional(), patterns: z.array(z.string()) }),
    result: z.object({ files: z.array(protectedFileSchema) }),
  },
  /** Put protected files back from the baseline's blobs and remove files the baseline did not have. */
  'protect.restore': {
    params: z.object({
      /** parallel stories: the lane (its story id) whose worktree this runs in; absent = the main working tree */
      lane: laneSchema.optional(), write: z.array(protectedFileSchema), remove: z.array(z.string()) }),
    result: z.object({ restored: z.array(z.string()) }),
  },
  /** Commit the project's changes with Yoke-Run / Yoke-Effect trailers. */
  'commit.create': {
    params: z.object({
      message: z.string(),
      iteration: z.number().int(),
      /** where HEAD must be for yoke to commit: the run's branch, containing this commit; absent = not checked */
      head: headSchema.optional(),
      /**
       * The DECISIONS.md entry that lands in this commit (DESIGN §9), decided by the machine; absent
       * when the run has no context layer. Appended only when `.yoke/context/` exists, and taken out
       * again when the commit fails.
       */
      decision: z.object({ entry: z.string() }).optional(),
    }),
    result: z.object({
      sha: z.string().nullable(),
      /** the branch the commit went onto (absent in journals from before yoke watched HEAD) */
      branch: z.string().nullable().optional(),
    }),
  },
  /**
   * Stories: the journaled decision that a story passed, materialized in one commit: `passes: true`
   * in `.loop/prd.yaml`, the `DECISIONS.md` entry (only when `.yoke/context/` exists) and the work,
   * with Yoke-Run / Yoke-Effect / Yoke-Story trailers (no commit with `commit: false`).
   */
  'story.pass': {
    params: z.object({
      story: storySchema.shape.id,
      message: z.string(),
      iteration: z.number().int(),
      /** the decision entry's text (decisionEntry), appended to .yoke/context/DECISIONS.md when that folder exists */
      decision: z.string(),
      commit: z.boolean(),
      head: headSchema.optional(),
      /**
       * the blob of prd.yaml as the run holds it (its spec backup): the flag is written onto that
       * text, never onto whatever the agent left; absent in runs journaled before (the working file then)
       */
      spec: z.string().optional(),
    }),
    result: z.object({
      sha: z.string().nullable(),
      branch: z.string().nullable().optional(),
      /** the blob of prd.yaml as written: the spec backup restored from now on */
      prdBlob: z.string(),
      /**
       * the blob of prd.yaml the flag was set on, when it was newer than `spec`: the user's edit,
       * journaled as the run resumed after the pass was decided; absent otherwise
       */
      base: z.string().optional(),
    }),
  },
  /**
   * Parallel stories (DESIGN §10): the lane's git worktree on branch `yoke/<run>/<story>`, cut from
   * `base` (the target's commit), at `<state home>/yoke/worktrees/<project>-<hash>/<story>` (or
   * `.git/yoke/worktrees/<story>` in the project, where runs journaled before made it); `path` says
   * where, for people (project-relative, or under `$XDG_STATE_HOME` or `~/.local/state`). `reason` is the scheduling decision
   * (why this story, which were held back), journaled with the request. An existing worktree from an
   * earlier attempt is reset to `base`; its commits not on the target are kept under `refs/yoke/…`.
   */
  'worktree.create': {
    params: z.object({ lane: laneSchema, story: laneSchema, branch: z.string(), base: z.string(), attempt: z.number().int(), reason: z.string() }),
    result: laneGitSchema.extend({ path: z.string() }),
  },
  /** The lane's candidate: its work outside `.loop/` as one commit `feat(<id>): <title>` on the lane's branch. */
  'candidate.commit': {
    params: z.object({ lane: laneSchema, story: laneSchema, base: z.string(), message: z.string() }),
    result: laneGitSchema,
  },
  /** The integration lane: rebase the candidate onto the target branch (no AI conflict resolution: a conflict is aborted and named). */
  'candidate.rebase': {
    params: z.object({ lane: laneSchema, story: laneSchema, onto: z.string(), candidate: z.string() }),
    result: z.object({
      ok: z.boolean(), sha: z.string(), tree: z.string(), files: z.array(z.string()), output: z.string(),
      /** a clean rebase: the paths the rebased candidate changes on the target (absent in older journals) */
      changed: z.array(z.string()).optional(),
    }),
  },
  /**
   * The rejection of a candidate (DESIGN §10 calls it `candidate.rejected {story, files, gate}`; it is
   * journaled as this effect's `effect.started` params): a conflict (gate `rebase`), a failing gate on
   * the integrated tree (the gate's name), or a change to a protected file (gate `protect`). The
   * candidate's commit is kept under `refs/yoke/<run>/rejected/<story>/<attempt>`.
   */
  'candidate.reject': {
    params: z.object({ lane: laneSchema, story: laneSchema, attempt: z.number().int(), candidate: z.string(), files: z.array(z.string()), gate: z.string(), output: z.string() }),
    result: z.object({ kept: z.string() }),
  },
  /**
   * The integrated candidate lands: `passes: true` and the decision entry join its commit, the
   * target fast-forwards to it and the main working tree follows. `target` is the branch, `from` the
   * commit it must still be at.
   */
  'story.land': {
    params: z.object({ lane: laneSchema, story: laneSchema, candidate: z.string(), target: z.string(), from: z.string(), decision: z.string() }),
    result: z.object({ sha: z.string(), prdBlob: z.string() }),
  },
  /** Remove the lane's worktree and branch once the target contains `landed` (never before). */
  'worktree.remove': {
    params: z.object({ lane: laneSchema, story: laneSchema, branch: z.string(), landed: z.string(), target: z.string() }),
    result: z.object({ removed: z.boolean() }),
  },
} as const;

type Schemas = typeof effectSchemas;
export type EffectKind = keyof Schemas;
export const EFFECT_KINDS = Object.keys(effectSchemas) as EffectKind[];
export type EffectParams<K extends EffectKind> = z.infer<Schemas[K]['params']>;
export type EffectResult<K extends EffectKind> = z.infer<Schemas[K]['result']>;

/** A request as emitted by a machine: the kind and its purely-decided parameters. */
export type EffectRequest = { [K in EffectKind]: { kind: K; params: EffectParams<K> } }[EffectKind];

/** Build a typed request (keeps `kind` and `params` in step for the compiler). */
export function request<K extends EffectKind>(kind: K, params: EffectParams<K>): EffectRequest {
  return { kind, params } as EffectRequest;
}
