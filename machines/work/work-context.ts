// The context shared by the loop, brute and saga machines, and the pure rules that read it.
import type { Story } from '../../config/prd/story.js';
import type { BudgetDimension, Config, HookEvent, Mode } from '../../config/types.js';
import type { PrdState } from '../stories/story-progress.js';
import type { ParallelState } from '../parallel/parallel-state.js';
import type { Violation } from '../boundary.js';
import type { Drift, RestorePlan } from '../protect/protection-drift.js';
import type { Protection } from '../protect/protection.js';
import { request, type EffectRequest, type EffectResult, type Head, type Usage } from '../effects.js';
import { pricedUsage } from '../price-usage.js';
import { callSpend } from '../usage-totals.js';
import { redactNames } from '../redact-names.js';
import type { AcceptanceCheckResult } from '../acceptance/acceptance-check.js';
import { acceptancePassed, type ProofRecord } from './goal-acceptance.js';
import { checkPassed, gatesDone, type CheckOutcome, type PlannedCheck } from './guard-report.js';
import type { RoutingDecision } from '../routing/economic-choice.js';
import type { SequenceRoutes } from '../routing/sequence-route.js';
import type { ProtectedContextFile } from '../context/context-files.js';

/** Everything a lifecycle needs, journaled in `run.started`. */
export interface WorkInput {
  config: Config;
  /** canon/prompts/worker.md (plus the judged addendum in brute/saga) when the run started */
  workerPrompt: string;
  /** brute/saga: canon/prompts/judge.md */
  judgePrompt?: string;
  /** saga: canon/prompts/scoper.md */
  scoperPrompt?: string;
  /** goal: appended to the worker prompt after a second identical failure (canon/prompts/goal-diagnose.md) */
  diagnosePrompt?: string;
  /** absolute path of `.loop/` */
  loopDir: string;
  /** spec files (relative to .loop/) backed up at start and restored before every iteration */
  specFiles: string[];
  /** the protection baseline when the run started (DESIGN §16); absent without `protect` (and in older journals) */
  protection?: Protection;
  /**
   * Set (with `protection`) by runs started since protection covers every agent call: the judge's
   * and the scoper's calls are followed by a protect scan too (a judge's change is restored and
   * fails its verdict), goal acceptance measures the protected files' digest when its criteria
   * have run, and saga and stories name the digest in their outcome. Runs journaled before, which
   * scanned only after the worker, fold as they did.
   */
  protectAll?: true;
  /**
   * Present when `.yoke/context/` existed as the run started (DESIGN §9): then every agent prompt
   * opens with the "Project context" block and each accepted unit of work gets a DECISIONS.md
   * entry. `run` is the run's id (a loop/brute entry is named after its first 8 characters).
   * Absent in journals from before the context layer, whose runs therefore fold as they did.
   * `inject` is set by runs started since the block opens every prompt (a `context.read` before each
   * agent call); runs journaled before that have only the decision entries, and fold as they did.
   */
  contextLayer?: { run: string; inject?: true };
  /**
   * stories in parallel: set by runs started since each lane admits its agent calls against the
   * budgets and reads the context layer before them (DESIGN §10); runs journaled before that, whose
   * lanes did neither, fold as they did.
   */
  laneGates?: true;
  /**
   * stories in parallel: set by runs started since a lane's rate-limited agent call waits and
   * retries, and one that cannot authenticate holds the lane until `yoke run` is asked again, as in
   * a serial run; runs journaled before that, whose lanes read such a call's notes as a normal
   * exit, fold as they did.
   */
  laneSetbacks?: true;
  /**
   * stories in parallel: set by runs started since each lane's agent call asks the tool-call gate on
   * a socket of its own, judged in the lane's worktree (DESIGN §10, §13), and a held or ungated tool
   * call holds that lane as it holds a serial run; runs journaled before that, whose lanes ran
   * without the gate, fold as they did.
   */
  laneToolGate?: true;
  /**
   * stories in parallel: set by runs started since lanes' worktrees live outside the project (under
   * the state home, found again on each machine): the lane worker's prompt names its loop folder as
   * `.loop` (its working directory's), not as a path under the project's `.git/yoke/worktrees/`.
   * Runs journaled before that fold as they did.
   */
  laneLoopRelative?: true;
  /**
   * Set by runs started since the spec files are restored right after every agent call as well
   * (worker, judge, scoper, lane worker), so an agent's edit of a spec file never reaches the gates,
   * the judge, a commit or the end of the run (spec 1.1), and a story's `passes: true` is written
   * onto the backed-up prd.yaml. Runs journaled before that restored only before each iteration,
   * and fold as they did.
   */
  restoresAfterCalls?: true;
  /**
   * Set by runs started since the results of gated agent calls carry the tool calls the CLI ran
   * (`toolCalls`, DESIGN §13): `yoke replay --verify` then requires them and matches each against
   * the gate's rulings. The machine never reads it; runs journaled before it verify as they did.
   */
  toolCallProof?: true;
  /**
   * stories in parallel: set by runs started since lanes keep protected files (DESIGN §16): each
   * turn's restore puts the baseline's files in the worktree, a worker's change to one fails the
   * turn and is restored before any check, the lane's prompt names them, and the integration lane
   * refuses a candidate that changes one. Runs journaled before that fold as they did.
   */
  laneProtect?: true;
  /**
   * stories in parallel: set by runs started since a rejected candidate's story goes back to the
   * scheduler (so the file-overlap rule and priorities apply to its next attempt too); runs journaled
   * before that, whose lane started the next attempt at once, fold as they did.
   */
  laneRequeue?: true;
  /**
   * stories in parallel: the files each story's last attempt touched in earlier runs, from their
   * journaled lane boundary scans (decided as the run started); the scheduler starts from them.
   * Absent when there are none (and in older journals).
   */
  touchedBefore?: Record<string, string[]>;
  /** the run's id (absent in runs recorded before it was part of the input): goal's proof label */
  run?: string;
  /** SHA-256 of the whole effective config the run started with, for its check reports (DESIGN §12); absent in runs recorded before */
  configDigest?: string;
  /**
   * stories: set by runs started since a story's `journey:<name>` check runs that journey through
   * the check engine (one `acceptance.check` after the story's commands). Runs journaled before,
   * which handed it to `sh` as a `check.run`, fold as they did.
   */
  storyJourneys?: true;
  /**
   * goal: `check` runs acceptance as one `acceptance.check` (criteria, artifact bindings, journeys,
   * a report); absent in runs recorded before, which run `accept` commands as `check.run`s.
   */
  acceptanceEngine?: 'check';
  /** `routing economic`: the profile this run starts with, decided from the ledger when it started (DESIGN §15) */
  routing?: RoutingDecision;
  /**
   * Set (with `profile` lines) by runs started since routing follows sequences (DESIGN §15):
   * escalate keeps a rung per sequence (a story, a chunk, the run) in `routes`, climbs one tier (not
   * one profile) per attempt that failed its gates, never after an infrastructure failure (a crash,
   * an idle timeout, a timeout, a server error), and journals why with each worker call; each
   * profile runs with its own model; and `routing economic` compares sequences per story and chunk
   * under the stricter evidence rules. Runs journaled before fold as they did.
   */
  sequenceRouting?: true;
  /**
   * stories in parallel: set (with `sequenceRouting`) by runs started since lanes route per story
   * (DESIGN §10 with §15): each lane's worker call runs its story's rung of `routes` with its
   * profile's own model and journals why, a lane turn that failed its gates (or a candidate rejected
   * by a gate on the integrated tree) climbs that story only. Runs journaled before, whose lanes all
   * ran on the run-wide `routeStep` and never climbed, fold as they did.
   */
  laneRouting?: true;
  /** stories: prd.yaml's stories when the run started */
  stories?: Story[];
}

/** How a run ended; the CLI turns `exitCode` into the process status. */
export interface RunOutput {
  exitCode: 0 | 1;
  reason: 'done' | 'judge-pass' | 'max-iterations' | 'judge-bailout' | 'saga-done' | 'empty-sub-plan' | 'max-chunks'
    | 'goal-complete' | 'no-progress' | 'attempts' | 'stories-done' | 'story-blocked' | 'stories-blocked';
  iterations: number;
  /** the digest of the protection baseline the run ended under (absent without `protect`) */
  protection?: string;
}

/** What was spent so far, for budgets (call admission) and `yoke status`. */
export interface Spent {
  /** worker calls admitted (an interrupted call counts: it was started) */
  attempts: number;
  /** input + output tokens of calls that reported usage */
  tokens: number;
  costUsd: number;
  agentMs: number;
  /** calls whose usage (or cost) is unknown: budgets cannot see them */
  unknownUsage: number;
}

export interface WorkContext extends WorkInput {
  mode: Mode;
  maxIterations: number;
  /** current iteration, 1-based (per chunk in saga) */
  iteration: number;
  baseline: EffectResult<'baseline.capture'> | null;
  /** the sha of yoke's latest commit in this run (HEAD must keep containing it), null before the first */
  lastCommit: string | null;
  notesFirstLine: string | null;
  changed: string[];
  violations: Violation[];
  /** this iteration's restore of protected files the agent changed (null: nothing to restore) */
  protectRestore: RestorePlan | null;
  /** what the judge changed in protected files (DESIGN §16), kept until yoke's FAIL is written over its verdict; absent in older snapshots */
  judgeDrift?: Drift[] | null;
  plan: PlannedCheck[];
  checks: CheckOutcome[];
  /** goal (check engine): this attempt's acceptance check, null until it ran */
  acceptance: AcceptanceCheckResult | null;
  /** goal (check engine): the last report an acceptance check wrote, kept across attempts for `yoke status` */
  lastProof: ProofRecord | null;
  /** completed worker calls (interrupted ones are not counted) */
  agentCalls: number;
  /** agent calls cut short by a crash or a signal */
  interruptions: number;
  /** brute: why the judge is being called now */
  judgeTrigger: 'done' | 'cadence' | null;
  /** brute: the last verdict read, and why a verdict was invalid */
  verdict: 'PASS' | 'FAIL' | null;
  verdictProblem: string | null;
  /** brute: verdict.md's stamp just before the judge call (unchanged after it = no verdict written) */
  verdictStampBefore: string | null;
  consecutiveFailures: number;
  judgments: number;
  /** budgets: current ceilings (from yoke.conf, raised by `yoke budget`) and spending */
  budgets: Partial<Record<BudgetDimension, number>>;
  spent: Spent;
  /** wall clock readings (only taken when a wall-minutes budget exists) */
  runStartedAt: number | null;
  now: number | null;
  clockFresh: boolean;
  /** the budget dimension the run is waiting on, if any */
  blockedOn: BudgetDimension | null;
  /** why the run is held other than by a budget (`agent:auth-error`), and the agent's own words */
  heldFor: string | null;
  holdDetail: string | null;
  /** the agent session to resume on the next call (a tool call held by `defer`, Claude Code); absent in older snapshots */
  resumeSession?: string | null;
  /** rate-limited agent calls in a row, and when the current wait ends (epoch ms) */
  rateLimits: number;
  waitUntil: number | null;
  /** set on entering a final state (a chunk's outcome in saga, until the saga's own) */
  outcome: RunOutput | null;
  /** saga: the current chunk (0 before the first), and each finished chunk's notes for saga-log.md */
  chunk: number;
  sagaLog: Array<{ chunk: number; notes: string }>;
  /** saga: saga-log.md as it was when the saga started (kept in front: the log is append-only) */
  sagaLogBefore: string | null;
  /** saga: the current chunk's plan, backed up when the chunk starts and restored every iteration */
  chunkSpecFiles: Record<string, string | null>;
  /**
   * stories: prd.yaml was edited (STORIES_CHANGED) since the last spec restore was decided, so a
   * restore still outstanding then is followed by another (an older yoke put the old file back
   * there; today's puts back the edit, and the second finds nothing to do); cleared
   * when a restore is decided. Set only in runs that restore after calls (absent in older snapshots).
   */
  restoreAgain?: boolean;
  /** saga: what the scoper left: saga-notes.md says DONE; sub-plan.md is blank */
  sagaDone: boolean;
  subPlanBlank: boolean;
  /** goal: the last failed attempt's fingerprint and how many attempts in a row failed that way */
  lastFingerprint: string | null;
  fingerprintRepeats: number;
  /** `routing escalate`, runs without `sequenceRouting`: attempts of this sequence that failed their gates (the ladder's rung) */
  routeStep: number;
  /** `routing escalate`, runs with `sequenceRouting`: each sequence's rung, by `sequenceKey` (absent until the first worker call) */
  routes?: SequenceRoutes;
  /** the decision entry on its way into the next commit: the journaled clock, the notes, then the entry itself */
  decisionNow: number | null;
  decisionNotes: string | null;
  decisionEntry: string | null;
  /** stories: the story list and where each story stands */
  prd?: PrdState;
  /**
   * The context layer (DESIGN §9): the "Project context" block of the last `context.read`, which
   * opens the next agent prompt, and the blobs of PROJECT.md / DECISIONS.md the call must leave as
   * they were. Absent without the layer (and in older snapshots).
   */
  contextBlock?: string;
  contextGuard?: Record<ProtectedContextFile, string | null> | null;
  /** parallel stories (DESIGN §10): the lanes, the integration queue and the target; absent in serial runs */
  parallel?: ParallelState;
}

/** The context a machine starts with. */
export function initialContext(input: WorkInput): WorkContext {
  return {
    ...input,
    mode: input.config.mode,
    maxIterations: input.config.maxIterations,
    iteration: 1,
    baseline: null,
    lastCommit: null,
    ...freshIteration(),
    agentCalls: 0,
    interruptions: 0,
    judgeTrigger: null,
    verdict: null,
    verdictProblem: null,
    verdictStampBefore: null,
    consecutiveFailures: 0,
    judgments: 0,
    budgets: { ...input.config.budgets },
    spent: { attempts: 0, tokens: 0, costUsd: 0, agentMs: 0, unknownUsage: 0 },
    runStartedAt: null,
    now: null,
    clockFresh: false,
    blockedOn: null,
    heldFor: null,
    holdDetail: null,
    resumeSession: null,
    rateLimits: 0,
    waitUntil: null,
    outcome: null,
    chunk: 0,
    sagaLog: [],
    sagaLogBefore: null,
    chunkSpecFiles: {},
    sagaDone: false,
    subPlanBlank: false,
    lastFingerprint: null,
    fingerprintRepeats: 0,
    decisionNow: null,
    decisionNotes: null,
    decisionEntry: null,
    lastProof: null,
    routeStep: 0,
  };
}

/** Per-iteration fields, reset when an iteration starts. */
export function freshIteration(): Pick<WorkContext, 'notesFirstLine' | 'changed' | 'violations' | 'protectRestore' | 'plan' | 'checks' | 'acceptance' | 'judgeTrigger'> {
  return { notesFirstLine: null, changed: [], violations: [], protectRestore: null, plan: [], checks: [], acceptance: null, judgeTrigger: null };
}

/** `{ protection }` for a run's output: the digest of the baseline it ended under, absent without protection (as in older journals). */
export function protectionOutput(context: Pick<WorkContext, 'protection'>): { protection?: string } {
  return context.protection === undefined ? {} : { protection: context.protection.digest };
}

/** Does this run look at its protected files after every agent call, the judge's and the scoper's too (a journaled fact of its input)? */
export function protectsEveryCall(context: Pick<WorkInput, 'protection' | 'protectAll'>): boolean {
  return context.protectAll === true && context.protection !== undefined;
}

/**
 * `STATUS:`, then spaces or tabs or none, then `DONE` as the whole first line, with spaces, tabs and
 * a CR tolerated around it (the exact rule: docs/getting-started.md §4). Only those: a no-break
 * space, an ideographic space or a vertical tab is not whitespace here.
 */
export function notesSayDone(firstLine: string | null): boolean {
  return firstLine !== null && /^[ \t\r]*STATUS:[ \t]*DONE[ \t\r]*$/.test(firstLine);
}

/** Did this iteration pass the boundary, every gating check and (when it ran) the acceptance check? */
export function iterationPassed(context: WorkContext): boolean {
  return context.violations.length === 0 && context.checks.filter(gatesDone).every(checkPassed)
    && (context.acceptance === null || acceptancePassed(context.acceptance));
}

/** Worker says DONE and the iteration passed (the judge, if any, still has to agree). */
export function workerDone(context: WorkContext): boolean {
  return notesSayDone(context.notesFirstLine) && iterationPassed(context);
}

/** What decides success, fixed when the machine is built. */
export interface SuccessRule {
  /** brute/saga: the judge must have said PASS to a DONE */
  judged: boolean;
  /** goal: yoke's acceptance checks decide, not the worker's notes */
  goal: boolean;
}

/**
 * The run (or chunk) succeeded. Goal: yoke's acceptance checks passed (the worker's claim does not
 * count). Otherwise: the worker is done and, when judged, the judge said PASS.
 */
export function succeeded(context: WorkContext, rule: SuccessRule): boolean {
  if (rule.goal && context.acceptanceEngine === 'check') return context.acceptance !== null && iterationPassed(context);
  if (rule.goal) return context.checks.some((check) => check.kind === 'accept') && iterationPassed(context);
  return workerDone(context) && (!rule.judged || (context.judgeTrigger === 'done' && context.verdict === 'PASS'));
}

/** Did `.yoke/context/` exist when the run started (a journaled fact of its input)? */
export function hasContextLayer(context: Pick<WorkInput, 'contextLayer'>): boolean {
  return context.contextLayer !== undefined;
}

/** Are the spec files restored right after every agent call of this run (a journaled fact of its input)? */
export function restoresAfterCalls(context: Pick<WorkInput, 'restoresAfterCalls'>): boolean {
  return context.restoresAfterCalls === true;
}

/** The spec files as the run holds them now: the run's backup, with the chunk's (saga) and prd.yaml's (stories) newer versions. */
export function heldSpecFiles(context: Pick<WorkContext, 'baseline' | 'chunkSpecFiles'>): Record<string, string | null> {
  return { ...(context.baseline?.specFiles ?? {}), ...context.chunkSpecFiles };
}

/** Does every agent prompt of this run open with the "Project context" block (journaled with the layer)? */
export function injectsContext(context: Pick<WorkInput, 'contextLayer'>): boolean {
  return context.contextLayer?.inject === true;
}

/** Hook requests for an event, in declaration order. */
export function hookRequests(config: Config, event: HookEvent, iteration: number): EffectRequest[] {
  return config.hooks.filter((h) => h.event === event).map((h) => request('hook.fire', { event, command: h.command, iteration }));
}

/**
 * Where yoke left HEAD: the run's branch (from the baseline) at yoke's last commit, else at the
 * baseline commit. Null for runs whose baseline did not record HEAD (journals from before yoke
 * watched it): their scans and commits never check it.
 */
export function expectedHead(context: Pick<WorkContext, 'baseline' | 'lastCommit'>): Head | null {
  const head = context.baseline?.head;
  return head === undefined ? null : { branch: head.branch, sha: context.lastCommit ?? head.sha };
}

/** `{ head }` for the params of a boundary scan or a commit, absent when HEAD is not watched (so older journals re-derive the same params). */
export function headParams(context: Pick<WorkContext, 'baseline' | 'lastCommit'>): { head?: Head } {
  const head = expectedHead(context);
  return head === null ? {} : { head };
}

/** `{ ignoredUnder }` for the baseline and the boundary scans: the prefixes whose git-ignored files are protected too; absent when none (and in older journals). */
export function ignoredParams(config: Config): { ignoredUnder?: string[] } {
  return config.ignoredProtected !== undefined && config.ignoredProtected.length > 0 ? { ignoredUnder: config.ignoredProtected } : {};
}

/** The first budget this call would break, or null when it may go ahead (call admission). */
export function budgetBreached(context: WorkContext, countsAsAttempt = true): BudgetDimension | null {
  const { budgets, spent } = context;
  // Judge and scoper calls spend no attempt: the last attempt's DONE is still judged.
  if (countsAsAttempt && budgets.attempts !== undefined && spent.attempts + 1 > budgets.attempts) return 'attempts';
  if (budgets.tokens !== undefined && spent.tokens >= budgets.tokens) return 'tokens';
  if (budgets['cost-usd'] !== undefined && spent.costUsd >= budgets['cost-usd']) return 'cost-usd';
  if (budgets.minutes !== undefined && spent.agentMs >= budgets.minutes * 60_000) return 'minutes';
  const wall = budgets['wall-minutes'];
  if (wall !== undefined && context.now !== null && context.runStartedAt !== null && context.now - context.runStartedAt >= wall * 60_000) {
    return 'wall-minutes';
  }
  return null;
}

/**
 * What every agent call takes from yoke.conf: `idle-timeout`, `agent-timeout` when set, and the
 * `redact` names when there are any (each absent otherwise, as in older journals).
 */
export function callLimits(config: Config, resumeSession?: string | null): { idleTimeoutMs: number; timeoutMs?: number; redact?: string[]; resume?: string } {
  return {
    idleTimeoutMs: config.idleTimeoutMs,
    ...(config.agentTimeoutMs ? { timeoutMs: config.agentTimeoutMs } : {}),
    ...redactNames(config),
    // only a call after a held tool call resumes a session (older journals re-derive the same params)
    ...(resumeSession ? { resume: resumeSession } : {}),
  };
}

/** What was spent after one more agent call: its usage (priced by `price` when the CLI gave no cost) and its time. */
export function spendCall(context: WorkContext, result: EffectResult<'agent.spawn'>): Spent {
  return addUsage(context.spent, pricedUsage(result.usage, context.config.prices), result.durationMs);
}

/** Add one agent call's (priced) usage to what was spent, counted as every other surface counts it. */
export function addUsage(spent: Spent, usage: Usage | null, durationMs: number): Spent {
  const { tokens, costUsd } = callSpend(usage);
  return {
    attempts: spent.attempts,
    tokens: spent.tokens + (tokens ?? 0),
    costUsd: spent.costUsd + (costUsd ?? 0),
    agentMs: spent.agentMs + durationMs,
    unknownUsage: spent.unknownUsage + (tokens === null || costUsd === null ? 1 : 0),
  };
}
