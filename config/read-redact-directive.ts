// Reads `redact <VAR>`: an environment variable whose value yoke keeps out of the journal.
import { oneArgument, reportAt, type DirectiveContext } from './directive-context.js';

const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * `redact DATABASE_URL`: besides the variables whose names look secret (KEY, TOKEN, SECRET,
 * PASSWORD, CREDENTIAL), this one's value is replaced in every output excerpt yoke journals. Only
 * the name is config; the value is read from the environment when a command runs. A repeat is a
 * warning.
 */
export function readRedact(ctx: DirectiveContext): void {
  const token = oneArgument(ctx);
  if (token === null) return;
  if (!VARIABLE.test(token.text)) {
    reportAt(ctx, token, {
      message: `\`${token.text}\` is not an environment variable name`,
      hint: 'write the name without `$`, using letters, digits and `_`, like `redact DATABASE_URL`',
    });
    return;
  }
  const repeat = ctx.draft.redact.find((entry) => entry.value === token.text);
  if (repeat !== undefined) {
    ctx.issues.warning(ctx.line.number, token.column, `\`${token.text}\` is already redacted on line ${repeat.line}`, 'remove the repeated line');
    return;
  }
  ctx.draft.redact.push({ value: token.text, line: ctx.line.number, column: token.column });
}
