// What a directive reader sees, and the argument-count checks every reader shares.
import { endColumn, restOfLine, type ConfigLine, type Token } from './config-line.js';
import type { ConfigDraft } from './config-draft.js';
import type { DirectiveName, DirectiveSpec } from './directive-table.js';
import type { IssueCollector } from './issue-collector.js';
import type { LifecycleCatalog } from './lifecycle-catalog.js';

/** One directive line being read, with the draft it fills and where its issues go. */
export interface DirectiveContext {
  name: DirectiveName;
  spec: DirectiveSpec;
  line: ConfigLine;
  draft: ConfigDraft;
  issues: IssueCollector;
  /** the lifecycles a `mode` line may name */
  catalog: LifecycleCatalog;
}

/** Reports an error at `token` (what is wrong, what to do). */
export function reportAt(ctx: DirectiveContext, token: Token, problem: { message: string; hint: string }): void {
  ctx.issues.error(ctx.line.number, token.column, problem.message, problem.hint);
}

/** The "write it as …" hint for this directive. */
export function usageHint(ctx: DirectiveContext): string {
  return `write it as \`${ctx.spec.usage}\`, like \`${ctx.spec.example}\``;
}

/** Reports that argument number `index` (0-based) is missing, at the end of the line. */
export function reportMissing(ctx: DirectiveContext, index: number): void {
  const what = ctx.spec.args[index] ?? 'argument';
  ctx.issues.error(ctx.line.number, endColumn(ctx.line), `\`${ctx.name}\` is missing its ${what}`, usageHint(ctx));
}

/** Reports an unexpected argument after the last one the directive takes. */
export function reportExtra(ctx: DirectiveContext, extra: Token, taken: number): void {
  const takes = taken === 1 ? 'one argument' : `${taken} arguments`;
  reportAt(ctx, extra, {
    message: `\`${ctx.name}\` takes ${takes}, but \`${extra.text}\` follows`,
    hint: `${usageHint(ctx)}; a comment needs a space before its #`,
  });
}

function exactly(ctx: DirectiveContext, count: number): Token[] | null {
  const args = ctx.line.tokens.slice(1);
  const extra = args[count];
  if (args.length < count) reportMissing(ctx, args.length);
  else if (extra !== undefined) reportExtra(ctx, extra, count);
  else return args;
  return null;
}

/** The single argument of a one-argument directive; reports and returns null when missing or followed by more. */
export function oneArgument(ctx: DirectiveContext): Token | null {
  const args = exactly(ctx, 1);
  return args?.[0] ?? null;
}

/** Both arguments of a two-argument directive; reports and returns null otherwise. */
export function twoArguments(ctx: DirectiveContext): [Token, Token] | null {
  const [first, second] = exactly(ctx, 2) ?? [];
  return first !== undefined && second !== undefined ? [first, second] : null;
}

/** The three arguments of a three-argument directive; reports and returns null otherwise. */
export function threeArguments(ctx: DirectiveContext): [Token, Token, Token] | null {
  const [first, second, third] = exactly(ctx, 3) ?? [];
  return first !== undefined && second !== undefined && third !== undefined ? [first, second, third] : null;
}

/** `count` leading arguments and the command (the rest of the line, verbatim); reports and returns null when any is missing. */
export function argumentsAndCommand(ctx: DirectiveContext, count: 1): { args: [Token]; command: string } | null;
export function argumentsAndCommand(ctx: DirectiveContext, count: 2): { args: [Token, Token]; command: string } | null;
export function argumentsAndCommand(ctx: DirectiveContext, count: number): { args: Token[]; command: string } | null {
  const args = ctx.line.tokens.slice(1, 1 + count);
  const command = restOfLine(ctx.line, 1 + count);
  if (args.length < count) reportMissing(ctx, args.length);
  else if (command === '') reportMissing(ctx, count);
  else return { args, command };
  return null;
}
