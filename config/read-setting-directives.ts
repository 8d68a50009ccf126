// Readers for the single-value settings: mode, models, counts, timeouts and commit policy.
import { withSuggestion } from './closest-match.js';
import { setScalar } from './config-draft.js';
import { oneArgument, reportAt, type DirectiveContext } from './directive-context.js';
import { parseDuration, parseTimeout } from './parse-duration.js';
import { parsePositiveInt } from './parse-number.js';
import { parseParallel } from './parse-parallel.js';
import { parsed, rejected, type ParsedValue } from './parsed-value.js';
import { lifecycleNames } from './lifecycle-catalog.js';
import type { Mode } from './types.js';

/** The argument token read by `parse`, or undefined (with the problem reported). */
function readValue<T>(ctx: DirectiveContext, parse: (text: string) => ParsedValue<T>): T | undefined {
  const token = oneArgument(ctx);
  if (token === null) return undefined;
  const result = parse(token.text);
  if (result.ok) return result.value;
  reportAt(ctx, token, result);
  return undefined;
}

/** A parser accepting one of `choices`, suggesting the closest on a typo. */
function oneOf<T extends string>(choices: readonly T[], what: string): (text: string) => ParsedValue<T> {
  return (text) => {
    const value = choices.find((choice) => choice === text);
    if (value !== undefined) return parsed(value);
    const hint = withSuggestion(`use one of ${choices.join(', ')}`, text, choices);
    return rejected(`\`${text}\` is not a ${what}`, hint);
  };
}

/** `mode <name>`: one of the catalog's lifecycles. */
export function readMode(ctx: DirectiveContext): void {
  setScalar(ctx.draft, 'mode', readValue<Mode>(ctx, oneOf(lifecycleNames(ctx.catalog), 'mode')));
}

/** `model`, `judge-model`, `scoper-model`: any single word. */
export function readModel(key: 'model' | 'judgeModel' | 'scoperModel'): (ctx: DirectiveContext) => void {
  return (ctx) => setScalar(ctx.draft, key, readValue(ctx, parsed));
}

const COUNT_EXAMPLES = { maxIterations: '50', judgeEvery: '5', maxJudgeFailures: '3', maxChunks: '20', maxStoryAttempts: '3', contextBudget: '8000' } as const;

/** `max-iterations`, `judge-every`, `max-judge-failures`, `max-chunks`, `max-story-attempts`, `context-budget`: a whole number ≥ 1. */
export function readCount(key: keyof typeof COUNT_EXAMPLES): (ctx: DirectiveContext) => void {
  return (ctx) => setScalar(ctx.draft, key, readValue(ctx, (text) => parsePositiveInt(text, COUNT_EXAMPLES[key])));
}

/** `idle-timeout`, `guard-timeout`, `agent-timeout`: a duration up to the timer maximum, stored in milliseconds. */
export function readTimeout(key: 'idleTimeoutMs' | 'guardTimeoutMs' | 'agentTimeoutMs'): (ctx: DirectiveContext) => void {
  return (ctx) => setScalar(ctx.draft, key, readValue(ctx, parseTimeout));
}

/** `rate-limit-wait`: the first wait after a rate limit; a duration above zero (zero would retry at once, forever). */
export function readRateLimitWait(ctx: DirectiveContext): void {
  setScalar(ctx.draft, 'rateLimitWaitMs', readValue(ctx, (text) => {
    const result = parseDuration(text);
    return result.ok && result.value === 0 ? rejected('`rate-limit-wait` cannot be 0', 'use a duration like 30s or 2m: yoke would otherwise retry a rate-limited call at once, again and again') : result;
  }));
}

/** `commit off|done|each`. */
export function readCommit(ctx: DirectiveContext): void {
  setScalar(ctx.draft, 'commit', readValue(ctx, oneOf(['off', 'done', 'each'] as const, 'commit setting')));
}

/** `review on|off` (stories: a judge reviews each story the worker says is done). */
export function readReview(ctx: DirectiveContext): void {
  const setting = readValue(ctx, oneOf(['on', 'off'] as const, 'review setting'));
  setScalar(ctx.draft, 'review', setting === undefined ? undefined : setting === 'on');
}

/** `on-story-blocked stop|skip`. */
export function readOnStoryBlocked(ctx: DirectiveContext): void {
  setScalar(ctx.draft, 'onStoryBlocked', readValue(ctx, oneOf(['stop', 'skip'] as const, 'on-story-blocked setting')));
}

/** `parallel N` (stories: up to N stories at once, each in its own git worktree). */
export function readParallel(ctx: DirectiveContext): void {
  setScalar(ctx.draft, 'parallel', readValue(ctx, parseParallel));
}
