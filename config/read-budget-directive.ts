// Reads `budget <dimension> <value>`: one ceiling per dimension, each with its own number form.
import { withSuggestion } from './closest-match.js';
import { reportAt, twoArguments, type DirectiveContext } from './directive-context.js';
import { parsePositiveDecimal, parsePositiveInt, parseTokenCount } from './parse-number.js';
import type { ParsedValue } from './parsed-value.js';
import { BUDGET_DIMENSIONS, type BudgetDimension } from './types.js';

/** How each budget dimension's value is written (shared with `yoke budget`). */
export const BUDGET_VALUE_PARSERS: { readonly [D in BudgetDimension]: (text: string) => ParsedValue<number> } = {
  'attempts': (text) => parsePositiveInt(text, '10'),
  'tokens': parseTokenCount,
  'cost-usd': (text) => parsePositiveDecimal(text, 'US dollars', '5 or 2.50'),
  'minutes': (text) => parsePositiveDecimal(text, 'minutes', '90'),
  'wall-minutes': (text) => parsePositiveDecimal(text, 'minutes', '120'),
};

function isDimension(word: string): word is BudgetDimension {
  return (BUDGET_DIMENSIONS as readonly string[]).includes(word);
}

/** `budget attempts|tokens|cost-usd|minutes|wall-minutes <value>`; a dimension may be set once. */
export function readBudget(ctx: DirectiveContext): void {
  const args = twoArguments(ctx);
  const dimensionToken = args?.[0] ?? ctx.line.tokens[1];
  if (dimensionToken === undefined) return;
  const dimension = dimensionToken.text;
  if (!isDimension(dimension)) {
    const hint = withSuggestion(`use one of ${BUDGET_DIMENSIONS.join(', ')}`, dimension, BUDGET_DIMENSIONS);
    reportAt(ctx, dimensionToken, { message: `\`${dimension}\` is not a budget dimension`, hint });
    return;
  }
  const key = `budget ${dimension}`;
  const first = ctx.draft.firstLines.get(key);
  if (first === undefined) ctx.draft.firstLines.set(key, ctx.line.number);
  else {
    reportAt(ctx, dimensionToken, {
      message: `the ${dimension} budget is already set on line ${first}`,
      hint: 'keep only one of the two lines',
    });
  }
  if (args === null) return;
  const value = BUDGET_VALUE_PARSERS[dimension](args[1].text);
  if (value.ok) ctx.draft.budgets[dimension] = value.value;
  else reportAt(ctx, args[1], value);
}
