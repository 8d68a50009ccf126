// Reads the tool-call control directives (DESIGN §13): `tool <class> <ruling>` rows and `tool-control`.
import { withSuggestion } from './closest-match.js';
import { setScalar } from './config-draft.js';
import { oneArgument, reportAt, twoArguments, type DirectiveContext } from './directive-context.js';
import type { Token } from './config-line.js';
import { RULINGS, TOOL_CLASSES, TOOL_CONTROL_MODES, type Ruling, type ToolClass, type ToolControl } from './types.js';

/** The word `token` names from `choices`, or null with the problem reported (and the closest choice suggested). */
export function oneOf<T extends string>(ctx: DirectiveContext, token: Token, choices: readonly T[], what: string): T | null {
  const value = choices.find((choice) => choice === token.text);
  if (value !== undefined) return value;
  const hint = withSuggestion(`use one of ${choices.join(', ')}`, token.text, choices);
  reportAt(ctx, token, { message: `\`${token.text}\` is not a ${what}`, hint });
  return null;
}

/** `tool <class> pass|hold|refuse`: overrides the shipped ruling for one class; one row per class. */
export function readToolRule(ctx: DirectiveContext): void {
  const args = twoArguments(ctx);
  const classToken = args?.[0] ?? ctx.line.tokens[1];
  if (classToken === undefined) return;
  const toolClass = oneOf<ToolClass>(ctx, classToken, TOOL_CLASSES, 'tool class');
  if (toolClass === null) return;
  const key = `tool ${toolClass}`;
  const first = ctx.draft.firstLines.get(key);
  if (first === undefined) ctx.draft.firstLines.set(key, ctx.line.number);
  else {
    reportAt(ctx, classToken, {
      message: `the ruling for ${toolClass} tool calls is already set on line ${first}`,
      hint: `keep only one of lines ${first} and ${ctx.line.number}`,
    });
  }
  if (args === null) return;
  const ruling = oneOf<Ruling>(ctx, args[1], RULINGS, 'tool ruling');
  if (ruling !== null && first === undefined) ctx.draft.toolRules[toolClass] = { ruling, line: ctx.line.number };
}

/** `tool-control on|off|advisory`. */
export function readToolControl(ctx: DirectiveContext): void {
  const token = oneArgument(ctx);
  if (token === null) return;
  setScalar(ctx.draft, 'toolControl', oneOf<ToolControl>(ctx, token, TOOL_CONTROL_MODES, 'tool-control setting') ?? undefined);
}
