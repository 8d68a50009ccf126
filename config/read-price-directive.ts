// Reads `price <model> <usd-per-Mtok-in> <usd-per-Mtok-out>`: what a model costs, once per model.
import { reportAt, threeArguments, type DirectiveContext } from './directive-context.js';
import { parseNonNegativeDecimal } from './parse-number.js';

/**
 * `price gpt-5.5 1.25 10`: US dollars per million input and output tokens for the model named as the
 * CLI reports it. Used to put a cost on calls whose CLI reports none (codex, gemini, `cmd`).
 */
export function readPrice(ctx: DirectiveContext): void {
  const args = threeArguments(ctx);
  const modelToken = args?.[0] ?? ctx.line.tokens[1];
  if (modelToken === undefined) return;
  const model = modelToken.text;
  const key = `price ${model}`;
  const first = ctx.draft.firstLines.get(key);
  if (first === undefined) ctx.draft.firstLines.set(key, ctx.line.number);
  else {
    reportAt(ctx, modelToken, {
      message: `the price of \`${model}\` is already set on line ${first}`,
      hint: `keep only one of lines ${first} and ${ctx.line.number}`,
    });
  }
  if (args === null) return;
  const input = parseNonNegativeDecimal(args[1].text, 'US dollars per million input tokens', '1.25');
  if (!input.ok) reportAt(ctx, args[1], input);
  const output = parseNonNegativeDecimal(args[2].text, 'US dollars per million output tokens', '10');
  if (!output.ok) reportAt(ctx, args[2], output);
  if (input.ok && output.ok && first === undefined) {
    ctx.draft.prices[model] = { inputPerMTok: input.value, outputPerMTok: output.value };
  }
}
