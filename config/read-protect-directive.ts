// Reads `protect <path-or-glob>…` and `protect auto` (DESIGN §16): the files that decide "done".
import { reportAt, reportMissing, type DirectiveContext } from './directive-context.js';
import { parseProtectPattern } from './parse-protect-pattern.js';

/** The word that asks yoke to infer the protected files from the config's commands. */
export const PROTECT_AUTO = 'auto';

/**
 * `protect tests/ package.json "**\/*.test.ts"`, or `protect auto`; any number of lines. Each
 * pattern keeps its line (messages about it name `yoke.conf:<line>`); a repeat is a warning.
 */
export function readProtect(ctx: DirectiveContext): void {
  const args = ctx.line.tokens.slice(1);
  if (args.length === 0) {
    reportMissing(ctx, 0);
    return;
  }
  for (const token of args) {
    const pattern = token.text === PROTECT_AUTO ? parsedAuto() : parseProtectPattern(token.text);
    if (!pattern.ok) {
      reportAt(ctx, token, pattern);
      continue;
    }
    const repeat = ctx.draft.protect.find((entry) => entry.value === pattern.value);
    if (repeat !== undefined) {
      ctx.issues.warning(ctx.line.number, token.column, `\`${pattern.value}\` is already protected on line ${repeat.line}`, 'remove the repeat');
      continue;
    }
    ctx.draft.protect.push({ value: pattern.value, line: ctx.line.number, column: token.column });
  }
}

function parsedAuto(): { ok: true; value: string } {
  return { ok: true, value: PROTECT_AUTO };
}
