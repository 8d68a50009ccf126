// A command yoke has no rule for: `exec`. Its arguments are still looked at: one that names a secret
// is `secret` (the program may print it), one that names a path steering yoke or an agent
// (`.git/`, settings, spec files) is `protected` (the program may write it).
import type { Finding } from '../classification.js';
import { protectionOf } from '../paths/protected-path.js';
import { displayPath, resolvePath } from '../paths/resolve-path.js';
import { secretReason } from '../paths/secret-path.js';
import type { Arg, CommandContext, CommandRule } from '../shell/command-context.js';

/** The path-like text of an argument: the word itself, or the value of `--name=value`. */
function pathText(arg: Arg): string | null {
  if (arg.text === null || arg.glob) return null;
  const eq = /^--?[A-Za-z][\w-]*=(.+)$/.exec(arg.text);
  if (eq?.[1] !== undefined) return eq[1];
  return arg.text.startsWith('-') ? null : arg.text;
}

function argumentFindings(name: string, arg: Arg, ctx: CommandContext): Finding[] {
  const text = pathText(arg);
  if (text === null || text === '' || ctx.cwd === null && !text.startsWith('/')) return text === null ? [] : [];
  const abs = resolvePath(ctx.cwd ?? '/', text, ctx.scope.home);
  const shown = displayPath(abs, ctx.scope.root);
  const secret = secretReason(shown);
  if (secret !== null) return [{ class: 'secret', reason: `\`${name}\` is given ${shown}: ${secret}`, path: shown }];
  const protection = protectionOf(abs, ctx.scope);
  if (protection?.kind === 'control') return [{ class: 'protected', reason: `\`${name}\` is given ${shown} and may write it: ${protection.reason}`, path: shown }];
  return [];
}

/** Any other command: `exec`, plus what its arguments name. */
export const runUnknown: CommandRule = (name, args, ctx) => [
  { class: 'exec', reason: `\`${name}\` runs a program yoke has no rule for` },
  ...args.flatMap((arg) => argumentFindings(name, arg, ctx)),
];
