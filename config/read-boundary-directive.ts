// Reads `allow` and `no-modify` path prefixes and catches repeats and contradictions between them.
import type { Located } from './config-draft.js';
import { oneArgument, reportAt, type DirectiveContext } from './directive-context.js';
import { parsePathPrefix } from './parse-path-prefix.js';

/** `allow <path-prefix>` / `no-modify <path-prefix>`: a repeat is a warning, the same prefix in both lists an error. */
export function readBoundary(list: 'allow' | 'noModify'): (ctx: DirectiveContext) => void {
  return (ctx) => {
    const token = oneArgument(ctx);
    if (token === null) return;
    const prefix = parsePathPrefix(token.text);
    if (!prefix.ok) {
      reportAt(ctx, token, prefix);
      return;
    }
    const same = (entry: Located<string>): boolean => entry.value === prefix.value;
    const other = list === 'allow' ? 'noModify' : 'allow';
    const repeat = ctx.draft[list].find(same);
    const conflict = ctx.draft[other].find(same);
    if (conflict !== undefined) {
      const otherName = other === 'allow' ? 'allow' : 'no-modify';
      reportAt(ctx, token, {
        message: `\`${prefix.value}\` is already listed by \`${otherName}\` on line ${conflict.line}`,
        hint: 'a prefix is either allowed or protected; remove one of the two lines',
      });
    } else if (repeat !== undefined) {
      ctx.issues.warning(ctx.line.number, token.column, `\`${prefix.value}\` is already listed by \`${ctx.name}\` on line ${repeat.line}`, 'remove the repeated line');
    }
    ctx.draft[list].push({ value: prefix.value, line: ctx.line.number, column: token.column });
  };
}
